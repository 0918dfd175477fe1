# Read by cpack before it packs (CPACK_PROJECT_CONFIG_FILE). A source package does not depend on
# the CPU (it installs no CMake project), so only binary packages are checked.
if(CPACK_VFX_NATIVE_BUILD AND CPACK_INSTALL_CMAKE_PROJECTS)
  message(FATAL_ERROR
    "vortonfx: this build is optimised for this machine's CPU (-march=native), and a package built "
    "from it may not run on another. Package a portable build instead:\n"
    "  cmake -S <source> -B build-package -DVFX_NATIVE=OFF -DVFX_BUILD_TESTS=OFF -DVFX_BUILD_BENCH=OFF\n"
    "  cmake --build build-package --parallel && (cd build-package && cpack -G DEB)")
endif()
