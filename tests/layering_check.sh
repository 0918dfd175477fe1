#!/usr/bin/env bash
# Fails when a module includes a module it must not depend on. Allowed, by module:
#   core: nothing;  bodies: core;  sim: core, bodies;  scene: core, bodies, sim;
#   export: core, bodies, sim;  render: core, bodies, sim, scene;  ui: all but app;
#   the Python module (python/src): the library (core, bodies, sim, scene, export) only.
# The library (core, bodies, sim, scene, export) never includes OpenGL, GLFW or ImGui.
set -euo pipefail
src="${1:-$(dirname "$0")/../src}"
declare -A forbidden=(
  [core]="bodies sim scene export render ui app"
  [bodies]="sim scene export render ui app"
  [sim]="scene export render ui app"
  [scene]="export render ui app"
  [export]="scene render ui app"
  [render]="export ui app"
  [ui]="app"
)
status=0
for module in "${!forbidden[@]}"; do
  for other in ${forbidden[$module]}; do
    if hits=$(grep -rn "#include \"$other/" "$src/$module" 2>/dev/null); then
      echo "layering: $module must not include $other/:"; echo "$hits"; status=1
    fi
  done
done
for module in core bodies sim scene export; do
  if hits=$(grep -rnE '#include [<"](GL/|GLFW/|glad/|imgui)' "$src/$module" 2>/dev/null); then
    echo "layering: the library module $module must not include OpenGL, GLFW or ImGui:"; echo "$hits"; status=1
  fi
done
# The Python module (python/src, beside src/) binds the library only: never render, ui or app.
python_src="$src/../python/src"
if [ -d "$python_src" ] && hits=$(grep -rnE '#include "(render|ui|app)/' "$python_src" 2>/dev/null); then
  echo "layering: the Python module must not include render, ui or app:"; echo "$hits"; status=1
fi
[ $status -eq 0 ] && echo "layering: every module includes only what it may"
exit $status
