-- conf.lua: LÖVE 11 settings. The test (`love . --test <dir>`) needs no
-- audio, joystick or physics; neither does the game.
function love.conf(t)
  t.identity = "steer-love-demo"
  t.version = "11.4"
  t.window.title = "steer in LÖVE"
  t.window.width, t.window.height = 960, 640
  t.window.vsync = 1
  t.modules.audio, t.modules.sound = false, false
  t.modules.joystick, t.modules.physics, t.modules.video = false, false, false
end
