---@meta steer
-- Lua language-server definitions of the `steer` module (Lua 5.4).
-- The hand-written part: bindings/meta/gen_annotations.c merges it with the
-- engine's reflected parameter table into bindings/library/steer.lua.
-- `--@@` lines are directives for the generator (see its header); the rest
-- is copied. Classes whose names end in `Options` or `Base` describe tables
-- and shared members; every other `steer.X` class is a class of the module.
-- docs/lua-api.md is the human reference; tests/lua/annotations_check.lua
-- checks this file against the module and the reference both ways.
--
-- Adding to the module:
--   a behaviour type (an engine type with reflected parameters): its class,
--     options and constructor are generated; add `--@@ summary <type> ...`,
--     a `--@@ param` line for each new reflected parameter, and a
--     `--@@ field|option|property` line for what the binding adds (a wrapped
--     behaviour, a target); `--@@ manual <type>` if its constructor takes
--     more than an options table, then write that function below.
--   a module function (steer.x): a `function steer.x(...) end` with its
--     ---@param / ---@return lines, in its section below.
--   a class (steer.X, a metatable the module registers): a ---@class block
--     with its ---@field properties, `local X = {}` and its methods; its
--     options table, if any, as steer.XOptions.
-- Then `cmake --build build --target update_annotations` refreshes the copy
-- in bindings/library/ (a test fails until it is the generated one).

---@class steerlib
local steer = {}

---The module's version, "major.minor.patch" (the CMake project version).
---@type string
steer.version = "@VERSION@"

---A point: `{x, y}` or `{x = x, y = y}`, in metres.
---@alias steer.Point { [1]: number, [2]: number }|{ x: number, y: number }

---What a behaviour steers relative to: an agent (followed as it moves) or a fixed point.
---@alias steer.Target steer.Agent|steer.Point

---The unit heading `(sin a, cos a)` of an orientation: 0 faces +y, a positive angle turns towards +x.
---@param a number Orientation, rad.
---@return number x
---@return number y
function steer.heading(a) end

---Every option of `steer.world{}`, `world:spawn{}` or `steer.formation{}`:
---first the reflected fields of the definition, each number, flag and
---choice with its rule, unit and range (reflected: true), then the
---binding's own options (nav_bounds, steering, role, pattern, ...; reflected:
---false, type naming the value: "table", "behaviour", ...). live: a property
---of the object too. Tools read them instead of restating the options.
---@param kind "world"|"agent"|"formation"
---@return { name: string, type: string, rule: string?, unit: string?, min: number?, max: number?, choices: string[]?, live: boolean, reflected: boolean }[] fields
function steer.options(kind) end

---The orientation `atan2(x, y)` of a direction, in (-pi, pi]; 0 for (0, 0).
---@param x number
---@param y number
---@return number orientation rad
function steer.orientation_of(x, y) end

-- ---------------------------------------------------------------- worlds

---Options of `steer.world{...}`.
---@class steer.WorldOptions
--@@ def world
--@@ doc world.seed Root of every random stream.
--@@ doc world.integrator "euler" (the notes' update) or "newton" (adds 0.5*a*t^2).
--@@ doc world.cell_size Neighbour grid cell side, best near the largest neighbour radius.
--@@ doc world.capacity Agents allocated up front (grows as needed). Default: 64.
--@@ doc world.resolve_contacts Push agents out of static geometry after each step.
--@@ doc world.resolve_agent_contacts Separate overlapping agents (and keep them out of static geometry) after each step.
--@@ doc world.workers Threads a step uses, the same bits for any count; Lua behaviours run on the calling thread.
---@field nav_bounds? number[] {x1, y1, x2, y2}: navigation plans inside this box only; points outside are refused (docs/navigation.md). Default: nil (open ground everywhere).

---A world: agents, static geometry, paths, random streams. Destroyed when collected or closed (`local w <close> = steer.world{}`).
---@class steer.World
---@field integrator "euler"|"newton" The integrator (read-write).
---@field cell_size number Neighbour grid cell side (read-write). Unit: m. Range: 0.001 to 1e9.
---@field resolve_contacts boolean Push agents out of static geometry after each step (read-write).
---@field resolve_agent_contacts boolean Separate overlapping agents after each step (read-write).
---@field steps integer Steps taken (read-only).
---@field workers integer Threads a step uses (read-only).
---@field data table The script's own plain values (nil, booleans, numbers, strings, tables of them; checked when a whole table is set): an empty table on first use, kept across a host's reload, new with a reset's new world.
---@field nav_bounds number[]? The world's nav_bounds {x1, y1, x2, y2}, or nil (read-only).
local World = {}

---A new world.
---@param options? steer.WorldOptions
---@return steer.World
function steer.world(options) end

---Options of `world:spawn{...}`; every one is optional.
---@class steer.SpawnOptions
--@@ def agent
--@@ doc agent.x Position.
--@@ doc agent.y Position.
--@@ doc agent.orientation Heading (sin a, cos a).
--@@ doc agent.vx Velocity, clamped to max_speed.
--@@ doc agent.vy Velocity, clamped to max_speed.
--@@ doc agent.rotation Turning rate.
--@@ doc agent.radius Size, for neighbours, avoidance and contacts.
--@@ doc agent.max_speed Speed limit.
--@@ doc agent.max_acceleration Acceleration limit.
--@@ doc agent.max_rotation Turning rate limit. Default: pi.
--@@ doc agent.max_angular_acceleration Angular acceleration limit. Default: 2 pi.
--@@ doc agent.drag Velocity /= 1 + drag*dt each step.
--@@ doc agent.kinematic The behaviour's output is a velocity and rotation, taken directly.
--@@ doc agent.face_velocity Orientation follows the velocity after each step.
--@@ doc agent.layer The layers the agent is on (bits); others see it when their mask meets it. Default: 1.
--@@ doc agent.mask The layers the agent sees (bits): its neighbours, avoidance, contacts and rays take only agents and shapes whose layer meets it. Default: every bit (0xFFFFFFFF).
--@@ doc agent.z Bottom of the agent's vertical extent [z, z + height]: agents and shapes meet only where their extents overlap (floors; ramps set z).
--@@ doc agent.height Height of the vertical extent [z, z + height] (touching extents meet).
--@@ doc agent.priority Reciprocal avoidance's right of way: of two avoiders the lower takes more of the avoidance, all of it against one at least 1 higher.
--@@ doc agent.key Positive identity for random streams; unique keys make a run independent of spawn order. Default: 1, 2, 3...
---@field steering? steer.BehaviourBase The agent's behaviour. Default: nil.
---@field role? string Kept on the Lua side (the script host maps roles to behaviours). Default: nil.
---@field tag? string Kept on the Lua side. Default: nil.
---@field color? string Presentation colour "#rrggbb" for viewers and world:draw (under the script host a role's colour from the script's colors table). Default: nil.

---A new agent.
---@param options? steer.SpawnOptions
---@return steer.Agent
function World:spawn(options) end

---One tick of dt seconds: every behaviour is evaluated against the state at the start of the tick, then every agent moves. Raises the first error of a Lua behaviour.
---@param dt number Unit: s. Range: 0 to 10000.
function World:step(dt) end

---The number of live agents.
---@return integer
function World:count() end

---@class steer.DrawOptions
---@field segment? fun(x1: number, y1: number, x2: number, y2: number, r: number, g: number, b: number, a: number)
---@field polygon? fun(points: number[], r: number, g: number, b: number, a: number)
---@field solid_polygon? fun(points: number[], r: number, g: number, b: number, a: number)
---@field circle? fun(x: number, y: number, radius: number, r: number, g: number, b: number, a: number)
---@field solid_circle? fun(x: number, y: number, radius: number, orientation: number, r: number, g: number, b: number, a: number)
---@field point? fun(x: number, y: number, size: number, r: number, g: number, b: number, a: number)
---@field arrow? fun(x: number, y: number, dx: number, dy: number, r: number, g: number, b: number, a: number)
---@field transform? fun(x: number, y: number, orientation: number)
---@field flags? ("shapes"|"agents"|"paths"|"velocity"|"steering"|"tree"|"rays"|"marks"|"nav_mesh"|"routes"|"flow"|"stuck")[] what to report (default all)
---@field steering_scale? number s^2 (default 0.25)
---@field velocity_scale? number s (default 0.5)

---The debug draw: the primitives steer_world_draw gives C callbacks, to Lua functions (any may be nil).
---Colours are r, g, b, a in [0, 1]; polygons are flat lists {x1, y1, x2, y2, ...}. Not while stepping;
---the callbacks may read the world, not change it; a callback's error is raised after drawing.
---@param callbacks steer.DrawOptions
function World:draw(callbacks) end

---What `world:find` and `world:agents` match (every field given must match).
---@class steer.AgentFilterOptions
---@field key? integer The agent's key.
---@field role? string The agent's role.
---@field tag? string The agent's tag.

---An iterator over the live agents (those matching filter), in no particular order; the current agent may be removed inside the loop.
---@param filter? steer.AgentFilterOptions
---@return fun(): steer.Agent?
function World:agents(filter) end

---The agent matching filter with the lowest key, or nil. O(agents): keep the result for the frame.
---@param filter steer.AgentFilterOptions
---@return steer.Agent?
function World:find(filter) end

---The live formations made through Lua, in the order of their ids: after a reload, the new chunk finds its squads here.
---@return steer.Formation[]
function World:formations() end

---A byte string holding everything the next step depends on, and the script's state (roles, tags, `agent.data`, `world.data`, the formations' plain values); `steer.world_from_snapshot` reads it back. Lua behaviours are saved by name: an unnamed one (`steer.behaviour(fn)`) raises. Not during a step.
---@return string
function World:snapshot() end

---What `world:query` considers: agents whose layer meets mask and whose extent [z, z + height] meets the band.
---@class steer.QueryFilterOptions
---@field mask? integer Agents whose layer & mask ~= 0. Default: every bit.
---@field ignore? steer.Agent An agent to skip. Default: nil.
---@field z? number Bottom of the band [z, z + height] (either of z, height given: the other 0). Default: no band. Unit: m.
---@field height? number Height of the band. Unit: m.

---The agents whose position is within radius (distance < radius), in a deterministic order.
---@param x number Unit: m.
---@param y number Unit: m.
---@param radius number Unit: m.
---@param filter? steer.QueryFilterOptions
---@return steer.Agent[]
function World:query(x, y, radius, filter) end

---A digest of every agent's state, behaviour memory and random stream, and of its layer, mask, z, height and priority where not the defaults (order-independent; not the limits, trees or shapes).
---"hex": the 64 bits as 16 hexadecimal digits, exact under every Lua (before 5.3 a number is a double).
---@param format? "integer"|"hex"
---@return integer|string
function World:hash(format) end

---Destroys the world now; its agents' proxies then raise.
function World:close() end

---Options of `world:path{...}` and `steer.path{...}`: the points (at least 2, consecutive points distinct) in the list part.
---@class steer.PathOptions
---@field [integer] steer.Point A point of the path.
---@field loop? boolean Closed: the last point joins the first. Default: false.

---A path (the same as `steer.path`).
---@param points steer.PathOptions
---@return steer.Path
function World:path(points) end

---The options of every shape constructor (its last argument; nothing may follow it).
---@class steer.ShapeOptions
---@field layer? integer The shape's layers (bits): agents see it when their mask meets them. Default: 1.
---@field z? number Bottom of its vertical extent [z, z + height]. Default: 0. Unit: m.
---@field height? number Height of its vertical extent. Default: 0. Unit: m.

---A wall segment between two distinct points.
---@param x1 number Unit: m.
---@param y1 number Unit: m.
---@param x2 number Unit: m.
---@param y2 number Unit: m.
---@param options? steer.ShapeOptions
---@return steer.Shape
function World:add_wall(x1, y1, x2, y2, options) end

---A solid circle.
---@param x number Unit: m.
---@param y number Unit: m.
---@param radius number Unit: m. Range: > 0.
---@param options? steer.ShapeOptions
---@return steer.Shape
function World:add_circle(x, y, radius, options) end

---A solid axis-aligned box, corners in any order.
---@param x1 number Unit: m.
---@param y1 number Unit: m.
---@param x2 number Unit: m.
---@param y2 number Unit: m.
---@param options? steer.ShapeOptions
---@return steer.Shape
function World:add_box(x1, y1, x2, y2, options) end

---A solid convex polygon: 3 to 16 points, any winding, no three in line.
---@param points steer.Point[]
---@param options? steer.ShapeOptions
---@return steer.Shape
function World:add_polygon(points, options) end

---A chain of walls through the points (`loop = true` closes it).
---@param points steer.PathOptions
---@param options? steer.ShapeOptions
---@return steer.Shape
function World:add_polyline(points, options) end

---What `world:raycast` considers.
---@class steer.RaycastFilterOptions
---@field mask? integer Shapes and agents whose layer & mask ~= 0. Default: every bit.
---@field agents? boolean Also hit agents, as circles. Default: false.
---@field ignore? steer.Agent An agent to skip (the caster). Default: nil.
---@field z? number Bottom of the band [z, z + height]: only what meets it (either of z, height given: the other 0). Default: no band. Unit: m.
---@field height? number Height of the band. Unit: m.

---The first hit of the ray (x, y) + (dx, dy)*s, s in [0, max_distance], or nil: the point, the unit normal facing the ray, the distance (m) and the shape or agent hit.
---@param x number Unit: m.
---@param y number Unit: m.
---@param dx number Direction, normalised: its length does not count (zero hits nothing); `max_distance` is metres.
---@param dy number
---@param max_distance number Unit: m.
---@param filter? steer.RaycastFilterOptions
---@return number? x
---@return number y
---@return number nx
---@return number ny
---@return number distance
---@return steer.Shape|steer.Agent hit
function World:raycast(x, y, dx, dy, max_distance, filter) end

-- ---------------------------------------------------------------- shapes

---Static geometry in a world: agents avoid it and rays hit it. Shapes compare with `==`.
---@class steer.Shape
---@field type "segment"|"polyline"|"circle"|"box"|"polygon" The kind of shape (read-only).
---@field layer integer Its layers (bits; the same as set_category).
---@field z number Bottom of its vertical extent [z, z + height]. Unit: m.
---@field height number Height of its vertical extent. Unit: m.
local Shape = {}

---Removes the shape from its world.
function Shape:remove() end

---False once removed or its world closed (never raises).
---@return boolean
function Shape:alive() end

---Sets the shape's layers (`shape.layer = bits`), tested against agents' and ray filters' masks (default 1).
---@param bits integer
function Shape:set_category(bits) end

-- ---------------------------------------------------------------- paths

---A polyline for `follow_path` (read-only; `#path` is its number of points).
---@class steer.Path
---@operator len: integer
---@field length number The length (read-only). Unit: m.
---@field loop boolean Closed: the last point joins the first (read-only).
local Path = {}

---A new path.
---@param points steer.PathOptions
---@return steer.Path
function steer.path(points) end

---The i-th point (1-based).
---@param i integer
---@return number x
---@return number y
function Path:point(i) end

---The point at a distance along the path (clamped, or wrapped when looped).
---@param distance number Unit: m.
---@return number x
---@return number y
function Path:position(distance) end

---The distance along the path of its point nearest to (x, y).
---@param x number Unit: m.
---@param y number Unit: m.
---@return number distance m
function Path:param(x, y) end

-- ---------------------------------------------------------------- navigation

---Options of `world:find_path{...}`.
---@class steer.FindPathOptions
---@field from steer.Point|steer.Agent Where the path starts (an agent: its position now).
---@field to steer.Point|steer.Agent Where it ends.
---@field radius? number Clearance kept from every shape. Unit: m. Range: 0 to 100. Default: 0.5.
---@field mask? integer The layers whose shapes are in the way (32-bit mask; others are not there). Default: every bit.

---The shortest path round the world's shapes for a disc of this radius, smoothed to corners (Recast/Detour; docs/navigation.md); nil and a message when there is none or an end lies inside a shape.
---@param options steer.FindPathOptions
---@return steer.Path? path
---@return string? message
function World:find_path(options) end

---Options of `world:flow_field{...}`.
---@class steer.FlowFieldOptions
---@field goal steer.Point|steer.Agent Where every direction leads.
---@field radius? number Clearance kept from every shape. Unit: m. Range: 0 to 100. Default: 0.5.
---@field cell? number Grid cell side. Unit: m. Default: 1.
---@field bounds number[] The grid's box {x1, y1, x2, y2}; at most 4194304 cells.
---@field mask? integer The layers whose shapes are in the way (32-bit mask; others are not there). Default: every bit.

---A flow field: the distance to the goal over the free space, computed once (fast marching), shared by any number of agents; nil and a message when the goal lies inside a shape or the grid is too large.
---@param options steer.FlowFieldOptions
---@return steer.FlowField? field
---@return string? message
function World:flow_field(options) end

---A distance field towards one goal (read-only).
---@class steer.FlowField
local FlowField = {}

---The unit direction towards the goal at (x, y), smoothly interpolated; 0, 0 at the goal or where it is unreachable.
---@param x number Unit: m.
---@param y number Unit: m.
---@return number dx
---@return number dy
function FlowField:direction(x, y) end

---The distance to the goal along the free space from (x, y); math.huge where unreachable.
---@param x number Unit: m.
---@param y number Unit: m.
---@return number distance m
function FlowField:distance(x, y) end

---The goal.
---@return number x
---@return number y
function FlowField:goal() end

---The grid: columns, rows, cell side and lower corner.
---@return integer columns
---@return integer rows
---@return number cell
---@return number x1
---@return number y1
function FlowField:grid() end

---Options of `steer.follow_flow_field{...}`.
---@class steer.FollowFlowFieldOptions
---@field field steer.FlowField The field to follow.
---@field time_to_target? number Seconds to reach the desired velocity. Unit: s. Default: 0.1.
---@field slow_radius? number Distance to the goal where the speed starts to drop. Unit: m. Default: 3.
---@field target_radius? number Distance to the goal where the agent stops. Unit: m. Default: 0.25.

---Options of `world:move_group{...}`.
---@class steer.MoveGroupOptions
---@field agents steer.Agent[] The units, each at most once.
---@field to steer.Point|steer.Agent Where to go (an agent: its position now).
---@field spacing? number Between stop points. Unit: m. Default: 4.4 x the largest radius.

---Send a group to one point: each unit gets its own stop point near `to` (a hexagonal lattice, nearest points first, clear of the shapes and in sight of `to`), by the optimal assignment with the units nearest the goal taking the points furthest in; the stop point becomes the unit's goal (agent.goal), which a `steer.navigate{}` without a target follows. On the way, two units of the group each nearer the other's stop point exchange them (agent.goal changes). Units whose behaviour has no navigate get `steer.reciprocal_avoidance{ preferred = steer.navigate{} }`. Returns the stop points by unit, or nil and a message (the goal inside a shape, no room).
---@param options steer.MoveGroupOptions
---@return steer.Point[]? stops
---@return string? message
function World:move_group(options) end

---A behaviour that steers down a flow field to its goal (a C callback behaviour: evaluated in the serial pass).
---@param options steer.FollowFlowFieldOptions
---@return steer.BehaviourBase
function steer.follow_flow_field(options) end

-- ---------------------------------------------------------------- formations

---@class steer.AnchorOptions
--@@ def formation anchor.
--@@ doc formation.anchor.x Start position.
--@@ doc formation.anchor.y Start position.
--@@ doc formation.anchor.orientation Start orientation.
--@@ doc formation.anchor.max_acceleration With steering.
--@@ doc formation.anchor.max_speed Speed limit.
--@@ doc formation.anchor.max_rotation How fast the anchor turns. Default: pi.
---@field target? steer.Target The anchor arrives at this agent or point {x, y}.
---@field path? steer.Path The anchor walks this path.
---@field steering? steer.BehaviourBase Or a behaviour steers the anchor (no Lua behaviour or formation slot inside).

---@alias steer.FormationPattern "line"|"column"|"v"|"circle"|"defensive_circle"|"grid"|number[][]|fun(slot: integer, slot_count: integer): number, number, number?

---@class steer.FormationOptions
---@field pattern? steer.FormationPattern A built-in pattern, a list of offsets {dx, dy[, orientation]}, or a function. Default: "line".
---@field leader? steer.Agent The slots are offsets in its frame (+y forward).
---@field anchor? steer.AnchorOptions Instead of a leader: a point that moves on its own (two-level formation).
---@field world? steer.World The world, when neither a leader nor members give it.
---@field members? steer.Agent[] Members, in order of joining.
--@@ def formation
--@@ doc formation.spacing Between members of the built-in patterns.
--@@ doc formation.moderation_distance Anchor: members lagging further slow it.
--@@ doc formation.motion How members move: steer to their slots, rigid, or emergent (follow a neighbour).
--@@ doc formation.assignment Which member takes which slot: optimal (least total cost) or ordered.
--@@ doc formation.distance_weight Weight of the distance to a slot in a member's cost.
---@field slot_roles? string[]|fun(slot: integer, slot_count: integer): string? Role names by slot.
---@field costs? table<string, table<string, number>>|fun(member: steer.Agent, slot: integer): number costs[member_role][slot_role] (math.huge: forbidden), or a function.
---@field steering? boolean false: members are not given f:behaviour(). Default: true.

---A formation: slots for a group around a leader or an anchor, with roles and an exact optimal assignment. The world owns it; collecting the proxy does not destroy it.
---@class steer.Formation
---@field pattern steer.FormationPattern Live.
---@field spacing number Live. Unit: m.
---@field leader steer.Agent? Live; nil: the anchor takes over where the leader was.
---@field motion "steer"|"rigid"|"emergent" Live.
---@field assignment "optimal"|"ordered" Live.
---@field slot_roles string[]|fun(slot: integer, slot_count: integer): string? Live.
---@field costs table<string, table<string, number>>|fun(member: steer.Agent, slot: integer): number Live.
---@field distance_weight number Live.
---@field moderation_distance number Live. Unit: m.
---@field members steer.Agent[] A new list of the members (read-only).
---@field slot_count integer Number of slots (read-only).
local Formation = {}

---A new formation in the world of its leader, members or `world`.
---@param options steer.FormationOptions
---@return steer.Formation
function steer.formation(options) end

---The agent joins (reassigning); it gets f:behaviour() unless it has steering.
---@param agent steer.Agent
function Formation:add(agent) end

---The agent leaves (reassigning); false if it was not a member.
---@param agent steer.Agent
---@return boolean
function Formation:remove(agent) end

---The slot a member holds (1-based), or nil.
---@param agent steer.Agent
---@return integer?
function Formation:slot_of(agent) end

---A slot's world position and orientation now, or nil without a leader.
---@param slot integer
---@return number? x
---@return number y
---@return number orientation
function Formation:slot_target(slot) end

---The member holding a slot, or nil.
---@param slot integer
---@return steer.Agent?
function Formation:slot_holder(slot) end

---The cost of the current assignment, recomputed now.
---@return number
function Formation:total_cost() end

---Assign again now (kept when no better: ties never swap members).
function Formation:reassign() end

---The agent a member follows (emergent: a member or the leader).
---@param agent steer.Agent
---@return steer.Agent?
function Formation:followed(agent) end

---The anchor now: position, orientation, and the moderation factor in (0, 1] of the last step.
---@return number x
---@return number y
---@return number orientation
---@return number moderation
function Formation:anchor() end

---The formation_slot behaviour members steer with (one per formation).
---@return steer.FormationSlot
function Formation:behaviour() end

---The formation goes; members keep their behaviours (no steering from it).
function Formation:destroy() end

-- ---------------------------------------------------------------- agents

---An agent of a world. One proxy per agent (`==` and table keys work); collecting it never removes the agent; using a removed agent raises.
---@class steer.Agent
---@field x number Position (read-only; set_position). Unit: m.
---@field y number Position (read-only; set_position). Unit: m.
---@field vx number Velocity (read-only; set_velocity). Unit: m/s.
---@field vy number Velocity (read-only; set_velocity). Unit: m/s.
---@field orientation number Orientation in (-pi, pi] (read-only; set_orientation). Unit: rad.
---@field rotation number Angular velocity (read-only). Unit: rad/s.
---@field speed number The length of the velocity (read-only). Unit: m/s.
---@field key integer Identity for random streams (read-only).
---@field radius number Unit: m. Range: 0 to 1e30.
---@field max_speed number Unit: m/s. Range: 0 to 1e30.
---@field max_acceleration number Unit: m/s^2. Range: 0 to 1e30.
---@field max_rotation number Unit: rad/s. Range: 0 to 1e30.
---@field max_angular_acceleration number Unit: rad/s^2. Range: 0 to 1e30.
---@field drag number Velocity /= 1 + drag*dt each step. Unit: 1/s. Range: 0 to 1e30.
---@field stuck boolean Its navigate has made no progress for its stuck_time (read-only).
---@field goal steer.Point? Its own goal, for a `steer.navigate{}` without a target; nil: none (read-write; world:move_group sets it).
---@field kinematic boolean The behaviour's output is a velocity and rotation, taken directly.
---@field face_velocity boolean Orientation follows the velocity after each step.
---@field layer integer The layers the agent is on (bits).
---@field mask integer The layers it sees (bits): agents and shapes whose layer meets it.
---@field z number Bottom of its vertical extent [z, z + height]. Unit: m.
---@field height number Height of its vertical extent (>= 0). Unit: m.
---@field priority number Reciprocal avoidance's right of way: the lower takes more of the avoidance.
---@field trace boolean Record this agent's evaluation for the debug draw and inspectors (off by default).
---@field steering steer.BehaviourBase? The behaviour (setting it resets the behaviour memory).
---@field role string? Kept on the Lua side (the script host maps roles to behaviours).
---@field tag string? Kept on the Lua side.
---@field data table The script's own plain values for this agent (nil, booleans, numbers, strings, tables of them; checked when a whole table is set): an empty table on first use, kept while the agent lives (a host's reload keeps it).
---@field formation steer.Formation? The formation the agent is a member of (not one it only leads), or nil (read-only).
---@field color string? Presentation colour "#rrggbb" for viewers and world:draw; nil: none (never read by the step).
local Agent = {}

---@return number x m
---@return number y m
function Agent:position() end

---@return number vx m/s
---@return number vy m/s
function Agent:velocity() end

---The last step's evaluation of a traced agent (agent.trace = true) as a tree; nil when untraced.
---Each node: type (the behaviour's type), weight (the blend weight applied), output ({lx, ly, angular}
---before weighting, nil: no steering), children; priority nodes: winner_linear, winner_angular (the
---1-based child whose group won), fallback_linear, fallback_angular; the root: truncated.
---@return table?
function Agent:trace_tree() end

---The agent's navigate plan, for inspectors; nil when its behaviour does not navigate or it has not stepped since.
---status: "following", "arrived", "failed" (message says why; tried again every second) or "no_goal";
---points: the route {{x, y}, ...} from where it was planned to the goal; next: the index of the point
---it steers to; goal {x, y}; remaining (m); radius (the clearance, m); stalled (s without progress);
---stuck; replans (plans made so far); message.
---@return table?
function Agent:plan() end

---The unit heading (sin a, cos a) of the orientation.
---@return number x
---@return number y
function Agent:heading() end

---@param x number Unit: m.
---@param y number Unit: m.
function Agent:set_position(x, y) end

---@param vx number Unit: m/s.
---@param vy number Unit: m/s.
function Agent:set_velocity(vx, vy) end

---@param a number Orientation, wrapped into (-pi, pi]. Unit: rad.
---@param rotation? number Unit: rad/s.
function Agent:set_orientation(a, rotation) end

---Like `agent.steering = b`; keep_memory keeps the wander angle and path progress.
---@param b steer.BehaviourBase?
---@param keep_memory? boolean
function Agent:set_steering(b, keep_memory) end

---The steering the last step applied.
---@return number lx m/s^2
---@return number ly m/s^2
---@return number angular rad/s^2
function Agent:last_steering() end

---The agent leaves the world.
function Agent:remove() end

---False once removed or its world closed (never raises).
---@return boolean
function Agent:alive() end

-- ---------------------------------------------------------------- behaviours

---What every behaviour has. A behaviour can drive any number of agents; every option is a live, typed property.
---@class steer.BehaviourBase
---@field type string The constructor's name (read-only).
local BehaviourBase = {}

---The steering the behaviour asks for now, or nil when it asks for none (the notes' getSteering). Linear in m/s^2 (m/s for kinematic behaviours), angular in rad/s^2 (rad/s). A preview: it changes nothing.
---@param agent steer.Agent
---@param dt? number Unit: s. Default: 1/60.
---@return number? lx
---@return number ly
---@return number angular
function BehaviourBase:get_steering(agent, dt) end

--@@ summary kinematic_seek Kinematic seek: full speed straight at the target (output is a velocity).
--@@ summary kinematic_flee Kinematic flee: full speed straight away from the target (output is a velocity).
--@@ summary kinematic_arrive Kinematic arrive: towards the target, stopping inside radius (output is a velocity).
--@@ summary kinematic_wander Kinematic wander: full speed ahead with a random turn each step (output is a velocity).
--@@ summary seek Seek: full acceleration towards the target.
--@@ summary flee Flee: full acceleration away from the target.
--@@ summary arrive Arrive: towards the target, slowing inside slow_radius to stop inside target_radius.
--@@ summary align Align: turn to match a target agent's orientation, or a fixed orientation.
--@@ summary velocity_match Velocity match: match the target agent's velocity.
--@@ summary pursue Pursue: seek where the target will be (predicted up to max_prediction ahead).
--@@ summary evade Evade: flee from where the target will be.
--@@ summary face Face: turn to look at the target.
--@@ summary look_where_you_are_going Look where you are going: turn to face the velocity.
--@@ summary wander Wander: seek a point on a circle ahead whose angle drifts at random.
--@@ summary follow_path Follow path: seek a point path_offset ahead along a path.
--@@ summary separation Separation: accelerate away from neighbours closer than radius.
--@@ summary cohesion Cohesion: seek the centre of the neighbours within radius.
--@@ summary alignment Alignment: match the mean velocity of the neighbours within radius.
--@@ summary collision_avoidance Collision avoidance: steer away from the neighbour of the closest predicted approach.
--@@ summary obstacle_avoidance Obstacle avoidance: cast rays ahead and seek a point avoid_distance off the wall hit.
--@@ summary blend Blend: the weighted sum of the children's outputs, clamped to the agent's limits.
--@@ summary priority Priority: per channel, the first child whose output exceeds epsilon.
--@@ summary formation_slot Formation slot: arrive at the agent's moving slot and align to it (from f:behaviour(); no constructor).
--@@ summary reciprocal_avoidance Reciprocal avoidance (ORCA): the permitted velocity nearest the preferred behaviour's, avoiding neighbours and shapes.
--@@ summary navigate Navigate: plan a route round the world's shapes to the target (or the agent's goal), follow it, replan when the target moves or the shapes change.
--@@ summary behaviour A behaviour written in Lua (the slow path: every call goes from C into Lua).
--@@ param radius How far to look for neighbours.
--@@ param radius:kinematic_arrive Inside this distance the agent has arrived.
--@@ param radius:navigate Clearance the route keeps from the shapes; nil: the agent's radius.
--@@ param replan_distance Replan when the target has moved, or the agent strayed from its route, by more than this.
--@@ param stuck_time agent.stuck turns true after this long without the remaining route shortening by 0.25 m.
--@@ param target_radius Inside this distance the agent has arrived.
--@@ param target_radius:align,face,look_where_you_are_going,wander Inside this angle the agent has turned enough.
--@@ param slow_radius Inside this distance it slows down; never less than target_radius.
--@@ param slow_radius:align,face,look_where_you_are_going,wander Inside this angle it slows its turn; never less than target_radius.
--@@ param time_to_target Time over which to reach the target speed.
--@@ param orientation The orientation to align to when there is no target agent.
--@@ param max_prediction Longest look-ahead when predicting the target's position.
--@@ param panic_radius Flee only while the target is closer than this (the notes' flee with a radius); nil: at any range.
--@@ param arrive_on_overshoot Arrive (slow down) instead of seeking when the prediction overshoots.
--@@ param wander_offset Distance of the wander circle ahead of the agent.
--@@ param wander_radius Radius of the wander circle.
--@@ param wander_rate Largest random change of the wander angle per step.
--@@ param path_offset Distance along the path ahead of the agent's nearest point to seek.
--@@ param predict_time Predict the agent's position this far ahead (0: not predictive).
--@@ param decay_coefficient Strength of the inverse-square law (strength = k / distance^2).
--@@ param law Strength law: inverse-square or linear in the distance.
--@@ param cone_threshold Only neighbours inside the cone heading . direction > cone_threshold (a cosine); nil: no cone.
--@@ param lookahead Length of the central ray.
--@@ param avoid_distance How far off the wall the point to seek is.
--@@ param rays Ray layout: one central ray, whiskers, or parallel rays at the agent's sides.
--@@ param whisker_angle Angle between the central ray and a side whisker (at most pi/2).
--@@ param whisker_scale Side whisker length as a fraction of lookahead.
--@@ param scale_lookahead Lookahead scales with speed / max_speed (never shorter than the radius).
--@@ param epsilon A child's output must exceed this to win.
--@@ param time_horizon Collisions with agents are avoided this far ahead.
--@@ param obstacle_time_horizon Collisions with the world's shapes are avoided this far ahead.
--@@ param max_neighbours Only the closest this many neighbours are avoided (a whole number in [1, 64]).
--@@ param max_speed Limit override for this behaviour and everything under it; nil inherits the agent's.
--@@ param max_acceleration Limit override for this behaviour and everything under it; nil inherits the agent's.
--@@ param max_rotation Limit override for this behaviour and everything under it; nil inherits the agent's.
--@@ param max_angular_acceleration Limit override for this behaviour and everything under it; nil inherits the agent's.
--@@ field kinematic_seek,kinematic_flee,kinematic_arrive,seek,flee,arrive,velocity_match,pursue,evade,face target steer.Target? An agent or a point {x, y}; a point reads back as a new {x, y}; nil: no steering.
--@@ field navigate target steer.Target? An agent or a point {x, y}; nil: the agent's own goal (agent.goal, set by world:move_group).
--@@ field align target steer.Agent? The agent whose orientation to match (nil: align to `orientation`).
--@@ field follow_path path steer.Path? The path to follow.
--@@ field reciprocal_avoidance preferred steer.BehaviourBase The behaviour giving the preferred velocity (required).
--@@ option blend [integer] steer.BlendItem A child: a behaviour, or {behaviour, weight = w}.
--@@ option priority [integer] steer.BehaviourBase A child, in priority order.
--@@ property blend,priority children steer.BlendItem[] The children, read back as a new list in the constructor's form; assignable.
--@@ property behaviour fn steer.BehaviourFn The Lua function (read-only).
--@@ manual blend
--@@ manual priority
--@@ manual behaviour
--@@ manual formation_slot
--@@ behaviours
---The function of a behaviour written in Lua: returns `lx, ly[, angular]`, or nil for no steering.
---@alias steer.BehaviourFn fun(agent: steer.Agent, dt: number): number?, number?, number?

---A child of a blend: a behaviour (weight 1), or `{behaviour, weight = w}`.
---@alias steer.BlendItem steer.BehaviourBase|{ [1]: steer.BehaviourBase, weight: number? }

---The weighted sum of the children's outputs (weight default 1, any finite number), clamped to the agent's limits; children that ask for no steering are left out.
---@param options steer.BlendOptions `{ {b1, weight = w1}, b2, ... }`
---@return steer.Blend
function steer.blend(options) end

---Per channel (linear, angular) the first child whose output exceeds epsilon wins; when none does, the last child that steered.
---@param options steer.PriorityOptions `{ b1, b2, ..., epsilon = 1e-3 }`
---@return steer.Priority
function steer.priority(options) end

---A behaviour written in Lua: `fn(agent, dt)` returns `lx, ly[, angular]`, or nil for no steering. The slow path: agents using it are evaluated in a serial pass. `steer.behaviour{ name = "hunt", fn = f }` names it: a snapshot saves it by that name and `steer.world_from_snapshot` re-binds it.
---@param fn steer.BehaviourFn|steer.NamedBehaviourOptions
---@return steer.Behaviour
function steer.behaviour(fn) end

---@class steer.NamedBehaviourOptions
---@field name string The name a snapshot saves it by (1 to 255 bytes).
---@field fn steer.BehaviourFn

---@class steer.RestoreOptions
---@field workers? integer Threads of the new world, 1 to 64 (default 1): the restoring side's choice; every count gives the same bits.

---A new world from `world:snapshot()`: it steps to the bits the saved world would have given, with its roles, tags, data and formations. `bindings` maps the names of Lua behaviours to their functions; a snapshot naming one it lacks is refused with the name. Bad, truncated or damaged strings, another engine version: an error, never a crash.
---@param s string
---@param bindings? table<string, steer.BehaviourFn>
---@param options? steer.RestoreOptions
---@return steer.World
function steer.world_from_snapshot(s, bindings, options) end

return steer
