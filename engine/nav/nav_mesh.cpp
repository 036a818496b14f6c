// nav_mesh.cpp: the navigation meshes, over Recast and Detour (Debian's
// librecast-dev). The only C++ file of the library; everything it offers is
// the C interface of steer/nav.h and nav_internal.h.
//
// One tiled Detour mesh per radius. A tile is built the RecastDemo way
// (Sample_TileMesh.cpp: rasterize, compact, regions, contours, polygons),
// from a flat ground (clipped to nav_bounds, written straight into the
// compact heightfield: flat_ground) with every shape grown by radius +
// margin (0 by default) marked unwalkable (rcMarkConvexPolyArea, the grown
// shape a circumscribed polygon: nav_shape_inflate). No erosion: the
// clearance is in the marked polygons, exact up to the voxel size.
// Monotone regions (no distance field: half the build's work). Many tiles
// are made on two threads, then added in a fixed order (the same mesh).
// Shape changes mark the tiles they touch; the next query rebuilds those.
// A query's corners (nav_mesh_corners): an A* over the polygons whose node
// points follow the path (search_corridor; Detour's findPath, which puts
// them at edge midpoints, picks the wrong side of a shape far more often),
// then Detour's findStraightPath (string pulling), the shorter of that
// corridor and a second one (the first's polygons made dearer:
// second_corridor). The rest of a query is plain C (nav_path.c: the ends,
// the straight segment, the corners set against the exact shapes).
// (Polyanya, optimal over the mesh, was tried and not kept: docs/navigation.md.)
#include "nav_internal.h"

#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/Recast.h>
#include <recastnavigation/RecastAlloc.h>

#include <cmath>
#include <algorithm>
#include <cstring>
#include <new>
#include <atomic>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace {

const int kBorder = 3;          // cells round a tile, as RecastDemo's borderSize
const int kMaxPolys = 4096;     // corridor length of a query
const int kMaxStraight = 2048;  // corners of a path
const int kQueryNodes = 16384;  // Detour's A* node pool
const int kBuildThreads =
    2; // threads making tiles at once (the machines steer is measured on have 2 cores)
const size_t kTilesPerThread = 4; // fewer tiles than this per thread are made on the calling thread
const float kHeight = 0.2f;     // voxel height: the ground is flat

struct Layer {
    float radius = 0.0f;
    uint32_t mask = STEER_ALL_LAYERS; ///< the shapes this mesh sees: layer & mask != 0
    float margin = 0.0f;              ///< the shapes grown by radius + margin
    dtNavMesh *mesh = nullptr;
    dtNavMeshQuery *query = nullptr;
    std::unordered_set<uint64_t> built; // tiles made (possibly empty)
    std::unordered_set<uint64_t> dirty; // tiles a shape change touched
    uint64_t used = 0;
    int tiles_built = 0;
    int poly_bits = 0;
};

uint64_t tile_key(int tx, int ty) { return ((uint64_t)(uint32_t)tx << 32) | (uint32_t)ty; }

void free_layer(Layer *layer)
{
    if (!layer) return;
    dtFreeNavMeshQuery(layer->query);
    dtFreeNavMesh(layer->mesh);
    delete layer;
}

} // namespace

// search_corridor's polygon -> node map: open addressing over a table twice
// the node pool, cleared by a new stamp (no allocation per query or node).
struct NodeIndex {
    static const int kBits = 15; // 2 * kQueryNodes slots
    std::vector<dtPolyRef> refs;
    std::vector<int> nodes;
    std::vector<uint32_t> stamps;
    uint32_t stamp = 0;
    bool init()
    {
        try {
            refs.assign((size_t)1 << kBits, 0);
            nodes.assign((size_t)1 << kBits, 0);
            stamps.assign((size_t)1 << kBits, 0);
        } catch (...) {
            return false;
        }
        return true;
    }
    void clear()
    {
        if (++stamp == 0) std::fill(stamps.begin(), stamps.end(), 0u), stamp = 1;
    }
    // the slot of ref: its own, or the empty one where it goes
    size_t slot(dtPolyRef ref) const
    {
        size_t mask = ((size_t)1 << kBits) - 1, i = (size_t)((ref * 2654435761u) >> (32 - kBits)) & mask;
        while (stamps[i] == stamp && refs[i] != ref) i = (i + 1) & mask;
        return i;
    }
    int find(dtPolyRef ref) const
    {
        size_t i = slot(ref);
        return stamps[i] == stamp ? nodes[i] : -1;
    }
    void insert(dtPolyRef ref, int node)
    {
        size_t i = slot(ref);
        stamps[i] = stamp, refs[i] = ref, nodes[i] = node;
    }
};
static_assert((1 << NodeIndex::kBits) >= 2 * kQueryNodes, "the node index holds twice the node pool");

struct nav_mesh {
    steer_nav_def def;
    float tile = 0.0f; // tile side, a whole number of cells
    int tile_cells = 0;
    uint64_t clock = 0;
    std::vector<Layer *> layers;
    dtQueryFilter filter;
    std::vector<dtPolyRef> corridor;
    std::vector<float> straight;
    std::vector<struct SearchNode> nodes; // search_corridor's scratch
    NodeIndex node_index;
    std::vector<dtPolyRef> corridor2;      // the second corridor (the first's polygons penalised)
    std::vector<float> straight2;
    NodeIndex avoid;                       // the first corridor's polygons
    std::vector<std::pair<float, int>> open;
};

extern "C" struct nav_mesh *nav_mesh_create(const steer_nav_def *def)
{
    nav_mesh *m = new (std::nothrow) nav_mesh;
    if (!m) return nullptr;
    m->def = *def;
    m->tile_cells = (int)std::lround(def->tile_size / def->cell_size);
    m->tile = (float)m->tile_cells * def->cell_size;
    try {
        m->corridor.resize(kMaxPolys);
        m->corridor2.resize(kMaxPolys);
        if (!m->node_index.init() || !m->avoid.init()) throw std::bad_alloc();
        m->straight.resize(3 * kMaxStraight);
        m->straight2.resize(3 * kMaxStraight);
    } catch (...) {
        delete m;
        return nullptr;
    }
    return m;
}

extern "C" void nav_mesh_destroy(struct nav_mesh *m)
{
    if (!m) return;
    for (Layer *layer : m->layers) free_layer(layer);
    delete m;
}

// How far a shape's change reaches into the tiles of a layer: its growth,
// the voxel border and one cell of rounding.
static float reach(const nav_mesh *m, const Layer *layer)
{
    return layer->radius + layer->margin + (float)(kBorder + 1) * m->def.cell_size;
}

extern "C" void nav_mesh_dirty(struct nav_mesh *m, steer_vec2 lower, steer_vec2 upper)
{
    for (Layer *layer : m->layers) {
        float g = reach(m, layer);
        int x0 = (int)std::floor((lower.x - g) / m->tile), x1 = (int)std::floor((upper.x + g) / m->tile);
        int y0 = (int)std::floor((lower.y - g) / m->tile), y1 = (int)std::floor((upper.y + g) / m->tile);
        // a shape larger than the built area: every built tile it covers
        if ((int64_t)(x1 - x0 + 1) * (y1 - y0 + 1) > (int64_t)layer->built.size()) {
            for (uint64_t key : layer->built) {
                int tx = (int)(int32_t)(key >> 32), ty = (int)(int32_t)(uint32_t)key;
                if (tx >= x0 && tx <= x1 && ty >= y0 && ty <= y1) layer->dirty.insert(key);
            }
            continue;
        }
        for (int ty = y0; ty <= y1; ++ty)
            for (int tx = x0; tx <= x1; ++tx)
                if (layer->built.count(tile_key(tx, ty))) layer->dirty.insert(tile_key(tx, ty));
    }
}

static Layer *layer_for(nav_mesh *m, float radius, uint32_t mask, float margin)
{
    ++m->clock;
    for (Layer *layer : m->layers) {
        if (layer->radius == radius && layer->mask == mask && layer->margin == margin) {
            layer->used = m->clock;
            return layer;
        }
    }
    if ((int)m->layers.size() >= m->def.max_radii) {
        size_t oldest = 0;
        for (size_t i = 1; i < m->layers.size(); ++i)
            if (m->layers[i]->used < m->layers[oldest]->used) oldest = i;
        free_layer(m->layers[oldest]);
        m->layers.erase(m->layers.begin() + (long)oldest);
    }
    Layer *layer = new (std::nothrow) Layer;
    if (!layer) return nullptr;
    layer->radius = radius;
    layer->mask = mask;
    layer->margin = margin;
    layer->used = m->clock;
    layer->mesh = dtAllocNavMesh();
    layer->query = dtAllocNavMeshQuery();
    int tile_bits = 1;
    while ((1 << tile_bits) < m->def.max_tiles) ++tile_bits;
    layer->poly_bits = 22 - tile_bits; // 32-bit refs keep 10 bits of salt
    dtNavMeshParams params;
    std::memset(&params, 0, sizeof params);
    params.tileWidth = m->tile;
    params.tileHeight = m->tile;
    params.maxTiles = 1 << tile_bits;
    params.maxPolys = 1 << layer->poly_bits;
    if (!layer->mesh || !layer->query || dtStatusFailed(layer->mesh->init(&params)) ||
        dtStatusFailed(layer->query->init(layer->mesh, kQueryNodes))) {
        free_layer(layer);
        return nullptr;
    }
    try {
        m->layers.push_back(layer);
    } catch (...) {
        free_layer(layer);
        return nullptr;
    }
    return layer;
}

// Recast's working memory for one tile, freed on every path out.
struct TileWork {
    rcHeightfield *hf = nullptr;
    rcCompactHeightfield *chf = nullptr;
    rcContourSet *cset = nullptr;
    rcPolyMesh *pmesh = nullptr;
    ~TileWork()
    {
        rcFreeHeightField(hf);
        rcFreeCompactHeightfield(chf);
        rcFreeContourSet(cset);
        rcFreePolyMesh(pmesh);
    }
};

// The compact heightfield of a flat ground (x0..x1, z0..z1) over a tile of
// size x size cells from bmin, written directly: what rasterising the ground
// quad (rcRasterizeTriangles) and compacting it (rcBuildCompactHeightfield)
// give, the same bits (test_nav: flat_ground_is_the_rasterised_ground), for
// half the tile's build. A column has one span when the ground covers part
// of it; the span's floor is where the rasteriser puts the plane y = 0
// (the top of the voxel the plane y = 0 lies in), open to the top (h 255); every span is connected
// to its four neighbours that have one (Recast's layer index 0).
static bool flat_ground(rcCompactHeightfield &chf, int size, const float *bmin, const float *bmax, float cs,
                        float x0, float z0, float x1, float z1)
{
    // the columns the ground overlaps with some area
    int cx0 = std::max(0, (int)std::floor((x0 - bmin[0]) / cs));
    int cz0 = std::max(0, (int)std::floor((z0 - bmin[2]) / cs));
    int cx1 = std::min(size, (int)std::ceil((x1 - bmin[0]) / cs));
    int cz1 = std::min(size, (int)std::ceil((z1 - bmin[2]) / cs));
    if (cx1 <= cx0 || cz1 <= cz0) cx1 = cx0, cz1 = cz0;
    const int count = (cx1 - cx0) * (cz1 - cz0);
    chf.width = size;
    chf.height = size;
    chf.spanCount = count;
    chf.walkableHeight = 2;
    chf.walkableClimb = 1;
    chf.maxRegions = 0;
    rcVcopy(chf.bmin, bmin);
    rcVcopy(chf.bmax, bmax);
    chf.bmax[1] += 2.0f * kHeight;
    chf.cs = cs;
    chf.ch = kHeight;
    chf.cells = (rcCompactCell *)rcAlloc(sizeof(rcCompactCell) * (size_t)size * (size_t)size, RC_ALLOC_PERM);
    chf.spans = (rcCompactSpan *)rcAlloc(sizeof(rcCompactSpan) * (size_t)std::max(count, 1), RC_ALLOC_PERM);
    chf.areas = (unsigned char *)rcAlloc((size_t)std::max(count, 1), RC_ALLOC_PERM);
    if (!chf.cells || !chf.spans || !chf.areas) return false;
    std::memset(chf.cells, 0, sizeof(rcCompactCell) * (size_t)size * (size_t)size);
    std::memset(chf.areas, RC_WALKABLE_AREA, (size_t)count);
    const unsigned short floor_y = (unsigned short)(std::floor((0.0f - bmin[1]) * (1.0f / kHeight)) + 1);
    int idx = 0;
    for (int z = cz0; z < cz1; ++z) {
        for (int x = cx0; x < cx1; ++x, ++idx) {
            rcCompactCell &c = chf.cells[x + z * size];
            c.index = (unsigned)idx;
            c.count = 1;
            rcCompactSpan &s = chf.spans[idx];
            s.y = floor_y;
            s.reg = 0;
            s.h = 0xff;
            s.con = 0;
            for (int dir = 0; dir < 4; ++dir) {
                const int nx = x + rcGetDirOffsetX(dir), nz = z + rcGetDirOffsetY(dir);
                const bool inside = nx >= cx0 && nx < cx1 && nz >= cz0 && nz < cz1;
                rcSetCon(s, dir, inside ? 0 : RC_NOT_CONNECTED);
            }
        }
    }
    return true;
}

// The Detour data of tile (tx, ty) of a layer (null data: nothing walkable
// there). Reads the shapes and the settings only, so tiles may be made on
// several threads at once. False only when memory ran out or the tile has
// more polygons than a tile may hold.
static bool make_tile(const steer_nav *nav, const nav_mesh *m, const Layer *layer, int tx, int ty,
                      unsigned char **out, int *out_size)
{
    *out = nullptr;
    *out_size = 0;
    const float cs = m->def.cell_size;
    const float border = (float)kBorder * cs;

    float bmin[3] = {(float)tx * m->tile - border, -1.0f, (float)ty * m->tile - border};
    float bmax[3] = {(float)(tx + 1) * m->tile + border, 1.0f, (float)(ty + 1) * m->tile + border};
    // the ground: the tile and its border, within nav_bounds
    float gx0 = bmin[0], gz0 = bmin[2], gx1 = bmax[0], gz1 = bmax[2];
    if (m->def.has_bounds) {
        gx0 = std::fmax(gx0, m->def.lower.x), gz0 = std::fmax(gz0, m->def.lower.y);
        gx1 = std::fmin(gx1, m->def.upper.x), gz1 = std::fmin(gz1, m->def.upper.y);
        if (!(gx0 < gx1 && gz0 < gz1)) return true; // nothing walkable here
    }
    TileWork w;
    rcContext context(false);
    rcContext *ctx = &context;
    int size = m->tile_cells + 2 * kBorder;
    w.chf = rcAllocCompactHeightfield();
    w.cset = rcAllocContourSet();
    w.pmesh = rcAllocPolyMesh();
    if (!w.chf || !w.cset || !w.pmesh) return false;
    if (nav_search_mode & NAV_BUILD_RASTER) {
        // Recast's way: rasterise the ground quad, then compact the heightfield
        w.hf = rcAllocHeightfield();
        if (!w.hf || !rcCreateHeightfield(ctx, *w.hf, size, size, bmin, bmax, cs, kHeight)) return false;
        const float ground[12] = {gx0, 0.0f, gz0, gx1, 0.0f, gz0, gx1, 0.0f, gz1, gx0, 0.0f, gz1};
        const int tris[6] = {0, 1, 2, 0, 2, 3};
        const unsigned char areas[2] = {RC_WALKABLE_AREA, RC_WALKABLE_AREA};
        if (!rcRasterizeTriangles(ctx, ground, 4, tris, areas, 2, *w.hf, 1)) return false;
        if (!rcBuildCompactHeightfield(ctx, 2, 1, *w.hf, *w.chf)) return false;
    } else if (!flat_ground(*w.chf, size, bmin, bmax, cs, gx0, gz0, gx1, gz1)) {
        return false;
    }

    // every shape near the tile, grown by radius + margin, unwalkable
    const float grow = layer->radius + layer->margin;
    steer_vec2 inflated[NAV_MAX_INFLATED];
    float verts[3 * NAV_MAX_INFLATED];
    for (int i = 1; i < nav->used; ++i) {
        const nav_shape *s = &nav->shapes[i];
        if (!s->type || !(s->layer & layer->mask)) continue;
        float g = grow + cs;
        if (s->lower.x - g > bmax[0] || s->upper.x + g < bmin[0] || s->lower.y - g > bmax[2] ||
            s->upper.y + g < bmin[2])
            continue;
        int n = nav_shape_inflate(s, grow, inflated);
        for (int k = 0; k < n; ++k) {
            verts[3 * k] = inflated[k].x;
            verts[3 * k + 1] = 0.0f;
            verts[3 * k + 2] = inflated[k].y;
        }
        rcMarkConvexPolyArea(ctx, verts, n, -1.0f, 1.0f, RC_NULL_AREA, *w.chf);
    }

    if (nav_search_mode & NAV_BUILD_WATERSHED) {
        if (!rcBuildDistanceField(ctx, *w.chf)) return false;
        if (!rcBuildRegions(ctx, *w.chf, kBorder, 0, 20)) return false;
    } else {
        // monotone regions: no distance field (half the build's CPU time)
        if (!rcBuildRegionsMonotone(ctx, *w.chf, kBorder, 0, 20)) return false;
    }
    // contours simplified to within half a cell (Recast's maxError is in cells)
    if (!rcBuildContours(ctx, *w.chf, 0.5f, (int)(12.0f / cs), *w.cset)) return false;
    if (w.cset->nconts == 0) return true;
    if (!rcBuildPolyMesh(ctx, *w.cset, DT_VERTS_PER_POLYGON, *w.pmesh)) return false;
    if (w.pmesh->npolys == 0) return true;
    if (w.pmesh->npolys > (1 << layer->poly_bits)) return false;
    for (int i = 0; i < w.pmesh->npolys; ++i) w.pmesh->flags[i] = w.pmesh->areas[i] == RC_WALKABLE_AREA ? 1 : 0;

    dtNavMeshCreateParams p;
    std::memset(&p, 0, sizeof p);
    p.verts = w.pmesh->verts;
    p.vertCount = w.pmesh->nverts;
    p.polys = w.pmesh->polys;
    p.polyAreas = w.pmesh->areas;
    p.polyFlags = w.pmesh->flags;
    p.polyCount = w.pmesh->npolys;
    p.nvp = w.pmesh->nvp;
    // no detail mesh: the ground is flat, Detour triangulates the polygons itself
    p.walkableHeight = 2.0f * kHeight;
    // not used for the mesh (the clearance is in the marked shapes); Detour's
    // any-angle search reaches 50 times this far with its raycasts
    p.walkableRadius = 1.0f;
    p.walkableClimb = kHeight;
    p.tileX = tx;
    p.tileY = ty;
    p.tileLayer = 0;
    rcVcopy(p.bmin, w.pmesh->bmin);
    rcVcopy(p.bmax, w.pmesh->bmax);
    p.cs = cs;
    p.ch = kHeight;
    p.buildBvTree = true;
    unsigned char *data = nullptr;
    int data_size = 0;
    if (!dtCreateNavMeshData(&p, &data, &data_size)) return false;
    *out = data;
    *out_size = data_size;
    return true;
}

// Put a tile's data in place of the old tile (the mesh takes the data).
static bool place_tile(Layer *layer, int tx, int ty, unsigned char *data, int size)
{
    layer->mesh->removeTile(layer->mesh->getTileRefAt(tx, ty, 0), nullptr, nullptr);
    layer->built.insert(tile_key(tx, ty));
    layer->dirty.erase(tile_key(tx, ty));
    layer->tiles_built++;
    if (!data) return true;
    dtTileRef ref = 0;
    if (dtStatusFailed(layer->mesh->addTile(data, size, DT_TILE_FREE_DATA, 0, &ref))) {
        dtFree(data);
        return false;
    }
    return true;
}

// The tiles a query for this layer needs (nav_tile_range: nav_bounds, or
// the shapes' box and the points grown by the layer's reach and 2 m).
static bool needed_tiles(const steer_nav *nav, const nav_mesh *m, const Layer *layer, const steer_vec2 *points,
                         int count, int range[4])
{
    return nav_tile_range(nav, m->tile, reach(m, layer) + 2.0f, points, count, range);
}

// A tile to make: where, and what it came to.
struct TileJob {
    int tx, ty;
    unsigned char *data;
    int size;
    bool ok;
};

// Build what the range lacks and rebuild what changed. -1 when out of memory.
// Many tiles are made on up to kBuildThreads threads (each tile's data
// depends on the shapes only), then put in the mesh in the range's order on
// this thread: the same mesh, bit for bit, whatever the threads.
static int update_tiles(const steer_nav *nav, nav_mesh *m, Layer *layer, const int range[4])
{
    std::vector<TileJob> jobs;
    try {
        for (int ty = range[1]; ty <= range[3]; ++ty) {
            for (int tx = range[0]; tx <= range[2]; ++tx) {
                uint64_t key = tile_key(tx, ty);
                if (layer->built.count(key) && !layer->dirty.count(key)) continue;
                jobs.push_back({tx, ty, nullptr, 0, false});
            }
        }
    } catch (...) {
        return -1;
    }
    std::atomic<size_t> next(0);
    auto work = [&]() {
        for (size_t i = next++; i < jobs.size(); i = next++)
            jobs[i].ok =
                make_tile(nav, m, layer, jobs[i].tx, jobs[i].ty, &jobs[i].data, &jobs[i].size);
    };
    unsigned hw = std::thread::hardware_concurrency();
    size_t threads = (nav_search_mode & NAV_BUILD_ONE_THREAD)
                         ? 1
                         : std::min<size_t>({(size_t)kBuildThreads, hw ? (size_t)hw : 1u,
                                             jobs.size() / kTilesPerThread});
    std::vector<std::thread> helpers;
    for (size_t t = 1; t < threads; ++t) {
        try {
            helpers.emplace_back(work);
        } catch (...) {
            break; // no thread: this one does the rest
        }
    }
    work();
    for (std::thread &t : helpers)
        t.join();
    bool ok = true;
    for (TileJob &job : jobs) {
        if (ok && job.ok)
            ok = place_tile(layer, job.tx, job.ty, job.data, job.size);
        else
            dtFree(job.data);
        ok = ok && job.ok;
    }
    if (!ok) return -1;
    int count = (int)jobs.size();
    // a dirty tile outside the range is rebuilt when a query needs it
    return count;
}


// A* over the mesh's polygons whose node positions follow the path: a
// polygon is reached at the point of its entry portal that is shortest from
// the parent's point to the goal (where the straight line crosses the
// portal, else its nearer end), not at the portal's midpoint as Detour's
// findPath puts it, so the costs track the string-pulled length in large
// open polygons. Returns the corridor's length in polygons (0: none, or the
// search ran out of nodes).
struct SearchNode {
    dtPolyRef ref;
    int parent;
    float x, z, g, f;
    bool closed;
};

static float dist2d(float ax, float az, float bx, float bz)
{
    return std::sqrt((ax - bx) * (ax - bx) + (az - bz) * (az - bz));
}

// The point of portal a-b shortest on the way from p to the goal.
static void best_crossing(const float *a, const float *b, float px, float pz, float gx, float gz, float *x, float *z)
{
    // p + u e = a + t d, e = goal - p, d = b - a
    float dx = b[0] - a[0], dz = b[2] - a[2];
    float ex = gx - px, ez = gz - pz;
    float denom = ex * dz - ez * dx;
    if (denom != 0.0f) {
        float apx = a[0] - px, apz = a[2] - pz;
        float t = (apx * ez - apz * ex) / denom;
        float u = (apx * dz - apz * dx) / denom;
        if (t >= 0.0f && t <= 1.0f && u >= 0.0f && u <= 1.0f) {
            *x = a[0] + t * dx, *z = a[2] + t * dz;
            return;
        }
    }
    float la = dist2d(px, pz, a[0], a[2]) + dist2d(a[0], a[2], gx, gz);
    float lb = dist2d(px, pz, b[0], b[2]) + dist2d(b[0], b[2], gx, gz);
    if (la <= lb) *x = a[0], *z = a[2];
    else *x = b[0], *z = b[2];
}

static int search_corridor(nav_mesh *m, const Layer *layer, dtPolyRef start, dtPolyRef goal, const float *from,
                           const float *to, dtPolyRef *out, int max_out, const NodeIndex *avoid, float penalty,
                           float bound)
{
    const dtNavMesh *mesh = layer->mesh;
    std::vector<SearchNode> &nodes = m->nodes;
    NodeIndex &index = m->node_index;
    nodes.clear();
    index.clear();
    typedef std::pair<float, int> Open; // f, node
    std::vector<Open> &open = m->open;
    open.clear();
    auto later = [](const Open &a, const Open &b) { return a.first > b.first || (a.first == b.first && a.second > b.second); };
    nodes.push_back({start, -1, from[0], from[2], 0.0f, dist2d(from[0], from[2], to[0], to[2]), false});
    index.insert(start, 0);
    open.push_back({nodes[0].f, 0});
    int found = -1;
    while (!open.empty()) {
        std::pop_heap(open.begin(), open.end(), later);
        Open top = open.back();
        open.pop_back();
        SearchNode cur = nodes[(size_t)top.second];
        if (cur.closed || top.first > cur.f) continue;
        if (top.first > bound) return 0;
        nodes[(size_t)top.second].closed = true;
        if (cur.ref == goal) {
            found = top.second;
            break;
        }
        if ((int)nodes.size() > kQueryNodes) return 0;
        const dtMeshTile *tile = nullptr;
        const dtPoly *poly = nullptr;
        mesh->getTileAndPolyByRefUnsafe(cur.ref, &tile, &poly);
        for (unsigned int i = poly->firstLink; i != DT_NULL_LINK; i = tile->links[i].next) {
            const dtLink &link = tile->links[i];
            if (!link.ref) continue;
            const float *va = &tile->verts[3 * poly->verts[link.edge]];
            const float *vb = &tile->verts[3 * poly->verts[(link.edge + 1) % poly->vertCount]];
            float a[3] = {va[0], 0.0f, va[2]}, b[3] = {vb[0], 0.0f, vb[2]};
            if (link.side != 0xff && (link.bmin != 0 || link.bmax != 255)) {
                // a portal that is part of the edge (a tile border), as Detour's getPortalPoints
                float t0 = link.bmin / 255.0f, t1 = link.bmax / 255.0f;
                a[0] = va[0] + (vb[0] - va[0]) * t0, a[2] = va[2] + (vb[2] - va[2]) * t0;
                b[0] = va[0] + (vb[0] - va[0]) * t1, b[2] = va[2] + (vb[2] - va[2]) * t1;
            }
            float x, z;
            best_crossing(a, b, cur.x, cur.z, to[0], to[2], &x, &z);
            float step = dist2d(cur.x, cur.z, x, z);
            if (avoid && avoid->find(link.ref) >= 0) step *= penalty;
            float g = cur.g + step;
            float f = g + dist2d(x, z, to[0], to[2]);
            int k = index.find(link.ref);
            if (k < 0) {
                k = (int)nodes.size();
                nodes.push_back({link.ref, top.second, x, z, g, f, false});
                index.insert(link.ref, k);
            } else {
                SearchNode &n = nodes[(size_t)k];
                // a closed polygon stays closed (reopening it when a shorter way in
                // moves its point measured worse: 9 paths over 2% instead of 7 of 200)
                if (n.closed || g >= n.g) continue;
                n.parent = top.second, n.x = x, n.z = z, n.g = g, n.f = f;
            }
            open.push_back({f, k});
            std::push_heap(open.begin(), open.end(), later);
        }
    }
    if (found < 0) return 0;
    int n = 0;
    for (int k = found; k >= 0; k = nodes[(size_t)k].parent) ++n;
    if (n > max_out) return 0;
    int i = n;
    for (int k = found; k >= 0; k = nodes[(size_t)k].parent) out[--i] = nodes[(size_t)k].ref;
    return n;
}

static float xz_length(const float *p, int n)
{
    float length = 0.0f;
    for (int i = 1; i < n; ++i) length += dist2d(p[3 * i - 3], p[3 * i - 1], p[3 * i], p[3 * i + 2]);
    return length;
}

// The second corridor: search_corridor again with the first corridor's
// polygons (but its ends) 1.25 times dearer, string-pulled; the shorter of
// the two is kept (in *straight, *nstraight). The A* over the polygons is
// not exact: its node points are guesses at the taut path, so it can take
// the longer way round a shape; a second, distinct corridor catches most
// of those (steer-bench nav --compare 30: 9 paths over 2% to 4). Skipped
// when the first is within 2% of the straight line (nothing can be shorter
// by more); the second search gives up once its smallest f (with the
// penalty) passes 1.125 times the first length (steer-bench nav: 0.92 M
// instructions a query, against 0.72 M with one corridor).
static void second_corridor(nav_mesh *m, const Layer *layer, dtPolyRef start_ref, dtPolyRef goal_ref,
                            const float *start_on, const float *goal_on, int npolys, const float **straight,
                            int *nstraight)
{
    const float penalty = 1.25f, give_up = 1.125f, near_straight = 1.02f;
    float first = xz_length(m->straight.data(), *nstraight);
    if (first <= near_straight * dist2d(start_on[0], start_on[2], goal_on[0], goal_on[2])) return;
    m->avoid.clear();
    for (int i = 1; i + 1 < npolys; ++i) m->avoid.insert(m->corridor[(size_t)i], 0);
    int n = search_corridor(m, layer, start_ref, goal_ref, start_on, goal_on, m->corridor2.data(), kMaxPolys,
                            &m->avoid, penalty, give_up * first);
    if (n == 0 || m->corridor2[(size_t)n - 1] != goal_ref) return;
    int count = 0;
    layer->query->findStraightPath(start_on, goal_on, m->corridor2.data(), n, m->straight2.data(), nullptr, nullptr,
                                   &count, kMaxStraight, 0);
    if (count > 0 && xz_length(m->straight2.data(), count) < first) {
        *straight = m->straight2.data();
        *nstraight = count;
    }
}

static bool radius_ok(float radius) { return radius > 0.0f && radius <= STEER_NAV_MAX_RADIUS; }

extern "C" int steer_nav_prepare(steer_nav *nav, float radius, steer_nav_result *result)
{
    if (!nav || !radius_ok(radius)) {
        nav_fail(result, STEER_NAV_BAD_INPUT, "radius must be in (0, %g], got %g", (double)STEER_NAV_MAX_RADIUS,
                 (double)radius);
        return 0;
    }
    nav_mesh *m = nav->mesh;
    Layer *layer = layer_for(m, radius, STEER_ALL_LAYERS, m->def.margin);
    int range[4];
    if (!layer) {
        nav_fail(result, STEER_NAV_OUT_OF_MEMORY, "not enough memory");
        return 0;
    }
    if (!needed_tiles(nav, m, layer, nullptr, 0, range)) {
        nav_fail(result, STEER_NAV_OUTSIDE, "the shapes span more than %d tiles of %g m", m->def.max_tiles,
                 (double)m->tile);
        return 0;
    }
    int built = update_tiles(nav, m, layer, range);
    if (built < 0) {
        nav_fail(result, STEER_NAV_OUT_OF_MEMORY, "not enough memory for the navigation mesh");
        return 0;
    }
    if (result) {
        std::memset(result, 0, sizeof *result);
        result->status = STEER_NAV_OK;
    }
    return built;
}

extern "C" int steer_nav_tiles_built(const steer_nav *nav, float radius)
{
    if (!nav) return 0;
    for (const Layer *layer : nav->mesh->layers)
        if (layer->radius == radius && layer->mask == STEER_ALL_LAYERS && layer->margin == nav->mesh->def.margin)
            return layer->tiles_built;
    return 0;
}

extern "C" steer_nav_status nav_mesh_corners(steer_nav *nav, float margin, steer_vec2 from, steer_vec2 to,
                                             float radius, uint32_t mask, const float **corners, int *count,
                                             steer_nav_result *result)
{
    nav_mesh *m = nav->mesh;
    const steer_vec2 ends[2] = {from, to};
    Layer *layer = layer_for(m, radius, mask, margin);
    if (!layer) return nav_fail(result, STEER_NAV_OUT_OF_MEMORY, "not enough memory");
    int range[4];
    if (!needed_tiles(nav, m, layer, ends, 2, range))
        return nav_fail(result, STEER_NAV_OUTSIDE,
                        "(%g, %g) to (%g, %g) spans more than %d navigation tiles of %g m: declare nav_bounds",
                        (double)from.x, (double)from.y, (double)to.x, (double)to.y, m->def.max_tiles,
                        (double)m->tile);
    if (update_tiles(nav, m, layer, range) < 0)
        return nav_fail(result, STEER_NAV_OUT_OF_MEMORY, "not enough memory for the navigation mesh");

    // Recast's world is y-up: the ground plane's (x, y) is its (x, z)
    const float start[3] = {from.x, 0.0f, from.y}, goal[3] = {to.x, 0.0f, to.y};
    const float reach_mesh = margin + 2.0f * m->def.cell_size;
    const float extents[3] = {reach_mesh, 1.0f, reach_mesh};
    dtPolyRef start_ref = 0, goal_ref = 0;
    float start_on[3], goal_on[3];
    layer->query->findNearestPoly(start, extents, &m->filter, &start_ref, start_on);
    layer->query->findNearestPoly(goal, extents, &m->filter, &goal_ref, goal_on);
    int npolys = 0, nstraight = 0;
    const float *straight = m->straight.data();
    bool ours = false; // search_corridor's corridor
    if (start_ref && goal_ref) {
        if (m->def.any_angle) {
            // Detour's any-angle A*: raycasts shortcut the corridor while it
            // searches (up to 50 x the tiles' walkableRadius: 50 m)
            layer->query->initSlicedFindPath(start_ref, goal_ref, start_on, goal_on, &m->filter, DT_FINDPATH_ANY_ANGLE);
            int iters = 0;
            dtStatus st = DT_IN_PROGRESS;
            while (dtStatusInProgress(st)) st = layer->query->updateSlicedFindPath(1 << 20, &iters);
            layer->query->finalizeSlicedFindPath(m->corridor.data(), &npolys, kMaxPolys);
        } else if (m->def.detour_find_path) {
            layer->query->findPath(start_ref, goal_ref, start_on, goal_on, &m->filter, m->corridor.data(), &npolys,
                                   kMaxPolys);
        } else {
            npolys = search_corridor(m, layer, start_ref, goal_ref, start_on, goal_on, m->corridor.data(), kMaxPolys,
                                     nullptr, 1.0f, INFINITY);
            ours = true;
        }
        if (npolys == 0 || m->corridor[npolys - 1] != goal_ref) {
            start_ref = 0;
        } else {
            layer->query->findStraightPath(start_on, goal_on, m->corridor.data(), npolys,
                                           m->straight.data(), nullptr, nullptr, &nstraight,
                                           kMaxStraight, 0);
            if (ours) second_corridor(m, layer, start_ref, goal_ref, start_on, goal_on, npolys, &straight, &nstraight);
        }
    }
    if (!start_ref || !goal_ref)
        return nav_fail(result, STEER_NAV_NO_PATH, "no path from (%g, %g) to (%g, %g) for radius %g",
                        (double)from.x, (double)from.y, (double)to.x, (double)to.y, (double)radius);
    *corners = straight;
    *count = nstraight;
    return STEER_NAV_OK;
}

extern "C" int steer_nav_draw_mesh(const steer_nav *nav, float radius, steer_nav_polygon_fn *fn, void *context)
{
    if (!nav || !fn) return 0;
    const Layer *layer = nullptr;
    for (const Layer *l : nav->mesh->layers)
        if (l->radius == radius && l->mask == STEER_ALL_LAYERS && l->margin == nav->mesh->def.margin) layer = l;
    if (!layer) return 0;
    const dtNavMesh *mesh = layer->mesh;
    int drawn = 0;
    steer_vec2 points[DT_VERTS_PER_POLYGON];
    for (int t = 0; t < mesh->getMaxTiles(); ++t) {
        const dtMeshTile *tile = mesh->getTile(t);
        if (!tile || !tile->header) continue;
        for (int i = 0; i < tile->header->polyCount; ++i) {
            const dtPoly *poly = &tile->polys[i];
            if (poly->getType() != DT_POLYTYPE_GROUND) continue;
            for (int k = 0; k < poly->vertCount; ++k) {
                const float *v = &tile->verts[3 * poly->verts[k]];
                points[k] = steer_v2(v[0], v[2]);
            }
            fn(points, poly->vertCount, context);
            ++drawn;
        }
    }
    return drawn;
}
