-- version_check.lua <project version> <steer.pc> <CHANGELOG.md> <rockspec>...:
-- steer.version, the CMake project version, the pkg-config file and the
-- rockspecs agree, and the changelog has a section for what comes next.
local steer = require "steer"

local project, pc_path, changelog_path = arg[1], arg[2], arg[3]
assert(project and pc_path and changelog_path and arg[4],
  "usage: version_check.lua <version> <steer.pc> <CHANGELOG.md> <rockspec>...")

local check, failures = require("support").checker()

local function read(path) return assert(io.open(path)):read("a") end

check(steer.version == project, "steer.version is %s, the CMake project version %s", steer.version, project)
check(project:match("^%d+%.%d+%.%d+$"), "the project version %s is not major.minor.patch", project)

local pc_version = read(pc_path):match("\nVersion:%s*(%S+)")
check(pc_version == project, "%s says Version: %s, the project %s", pc_path, tostring(pc_version), project)

-- Deep equality of two rockspec values.
local function same(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for k, v in pairs(a) do
    if not same(v, b[k]) then return false end
  end
  for k in pairs(b) do
    if a[k] == nil then return false end
  end
  return true
end

-- steer-<version>-<revision>.rockspec for the release, steer-scm-<revision> for the tree
local released, first = 0, nil
for i = 4, #arg do
  local path = arg[i]
  local file_version = path:match("steer%-([%w.]+%-%d+)%.rockspec$")
  local spec = {}
  assert(load(read(path), "@" .. path, "t", spec))()
  check(spec.package == "steer", "%s: package is %s", path, tostring(spec.package))
  check(spec.version == file_version, "%s: version %s does not match the file name", path, tostring(spec.version))
  local upstream = tostring(spec.version):match("^(.-)%-%d+$")
  if upstream ~= "scm" then
    released = released + 1
    check(upstream == project, "%s: version %s, the project %s", path, tostring(spec.version), project)
  end
  local lua_dep = spec.dependencies and spec.dependencies[1]
  check(lua_dep == "lua >= 5.1, < 5.5", "%s: the Lua dependency is %s (5.1 to 5.4, LuaJIT)", path, tostring(lua_dep))
  check(spec.build and spec.build.type == "cmake", "%s: build.type is not cmake", path)
  -- one build for every rockspec (the LuaRocks test builds only the release's)
  if first then
    check(same(spec.build, first.build), "%s: its build differs from %s's", path, first.path)
    check(same(spec.dependencies, first.dependencies), "%s: its dependencies differ from %s's", path, first.path)
    check(same(spec.description, first.description), "%s: its description differs from %s's", path, first.path)
  else
    first = { path = path, build = spec.build, dependencies = spec.dependencies, description = spec.description }
  end
end
check(released == 1, "%d rockspecs for a release version (one, steer-%s-1.rockspec, expected)", released, project)

-- Keep a Changelog: an Unreleased section, or one for this version
local log = read(changelog_path)
check(log:find("\n## %[Unreleased%]") or log:find("\n## %[" .. project:gsub("%.", "%%.") .. "%]"),
  "%s has neither an [Unreleased] section nor one for %s", changelog_path, project)

print(string.format("version %s: steer.version, steer.pc, %d rockspecs; %d failures", project, #arg - 3, failures()))
os.exit(failures() == 0 and 0 or 1)
