# The Python module (python/) and the Blender add-on (blender/): built when pybind11 and the
# development files of Debian's python3 are found. Sanitizer builds leave them out: the
# interpreter would have to load the sanitizer runtime first.
set(VFX_PYTHON /usr/bin/python3 CACHE FILEPATH "Interpreter the Python module is built for")
if(EXISTS ${VFX_PYTHON})
  set(Python3_EXECUTABLE ${VFX_PYTHON})
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
find_package(pybind11 CONFIG QUIET)
if(Python3_FOUND AND pybind11_FOUND AND NOT VFX_SANITIZE)
  set(VFX_PYTHON_FOUND ON)
else()
  set(VFX_PYTHON_FOUND OFF)
endif()
option(VFX_BUILD_PYTHON "Build the Python module vortonfx and the Blender add-on (needs pybind11, python3-dev)"
  ${VFX_PYTHON_FOUND})
if(VFX_BUILD_PYTHON)
  if(NOT Python3_FOUND OR NOT pybind11_FOUND)
    message(FATAL_ERROR "VFX_BUILD_PYTHON=ON needs pybind11-dev and python3-dev (bash scripts/setup.sh installs them)")
  endif()
  message(STATUS "vortonfx: Python module for ${Python3_EXECUTABLE} (${Python3_VERSION})")
  add_subdirectory(python)
  add_subdirectory(blender)
endif()
