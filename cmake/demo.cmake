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

file(GLOB VFX_DEMO_SOURCES CONFIGURE_DEPENDS src/render/*.cpp src/ui/*.cpp src/app/demo/*.cpp)
add_executable(vortonfx src/app/demo_main.cpp ${VFX_DEMO_SOURCES})
target_link_libraries(vortonfx PRIVATE vortonfx_lib vfx_glad PkgConfig::GLFW PkgConfig::IMGUI
  OpenGL::GL ${CMAKE_DL_LIBS})
