# The demo: GLFW window, OpenGL 3.3 core through a glad loader generated at build time,
# Debian's Dear ImGui (with its GLFW and OpenGL3 backends inside libimgui.a).
find_package(PkgConfig REQUIRED)
find_package(OpenGL REQUIRED)
pkg_check_modules(GLFW REQUIRED IMPORTED_TARGET glfw3)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui stb)
find_program(GLAD_EXECUTABLE glad REQUIRED)

set(VFX_GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
add_custom_command(
  OUTPUT ${VFX_GLAD_DIR}/src/gl.c ${VFX_GLAD_DIR}/include/glad/gl.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gl:core=3.3 --out-path ${VFX_GLAD_DIR} c
  COMMENT "Generating the OpenGL 3.3 core loader with glad")
add_library(vfx_glad STATIC ${VFX_GLAD_DIR}/src/gl.c)
target_include_directories(vfx_glad PUBLIC ${VFX_GLAD_DIR}/include)
target_compile_options(vfx_glad PRIVATE -w)

# Demo code that needs no OpenGL (camera, meshes, picking and stirring, options):
# a library of its own so the tests can exercise it without a window.
set(VFX_DEMO_CORE_SOURCES
  ${CMAKE_SOURCE_DIR}/src/render/camera.cpp
  ${CMAKE_SOURCE_DIR}/src/render/mesh_builder.cpp
  ${CMAKE_SOURCE_DIR}/src/app/demo/interaction.cpp
  ${CMAKE_SOURCE_DIR}/src/app/demo/options.cpp)
add_library(vortonfx_demo_core STATIC ${VFX_DEMO_CORE_SOURCES})
target_link_libraries(vortonfx_demo_core PUBLIC vortonfx_lib PRIVATE CLI11::CLI11)

file(GLOB VFX_DEMO_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/src/render/*.cpp ${CMAKE_SOURCE_DIR}/src/ui/*.cpp ${CMAKE_SOURCE_DIR}/src/app/demo/*.cpp)
list(REMOVE_ITEM VFX_DEMO_SOURCES ${VFX_DEMO_CORE_SOURCES})
add_executable(vortonfx src/app/demo_main.cpp ${VFX_DEMO_SOURCES})
target_link_libraries(vortonfx PRIVATE vortonfx_demo_core vortonfx_vdb vortonfx_lib vfx_glad PkgConfig::GLFW PkgConfig::IMGUI
  OpenGL::GL ${CMAKE_DL_LIBS})

# Tests of the demo. tests/ is shared, so the wiring lives here and runs once the whole
# source tree is configured (the test target is created after this file is included).
function(vfx_wire_demo_tests)
  if(TARGET vortonfx_tests)
    target_link_libraries(vortonfx_tests PRIVATE vortonfx_demo_core)
    target_compile_definitions(vortonfx_tests PRIVATE VFX_HAVE_DEMO_CORE=1)
  endif()
endfunction()
if(VFX_BUILD_TESTS)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL vfx_wire_demo_tests)
  # End to end: the real window under Xvfb (Mesa software OpenGL) on every preset in scenes/.
  find_program(XVFB_RUN xvfb-run)
  find_package(Python3 COMPONENTS Interpreter)
  if(XVFB_RUN AND Python3_Interpreter_FOUND)
    enable_testing()
    add_test(NAME demo_screenshots
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/check_demo_screens.py
              --demo $<TARGET_FILE:vortonfx> --scenes ${CMAKE_SOURCE_DIR}/scenes
              --shaders ${CMAKE_SOURCE_DIR}/shaders --xvfb-run ${XVFB_RUN}
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(demo_screenshots PROPERTIES TIMEOUT 900 LABELS demo)
  else()
    message(STATUS "vortonfx: xvfb-run or python3 not found; the demo screenshot test is not registered")
  endif()
endif()
