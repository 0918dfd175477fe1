# Read by cpack before it packs (CPACK_PROJECT_CONFIG_FILE).
if(CPACK_VFX_NATIVE_BUILD)
  message(FATAL_ERROR
    "vortonfx: this build is optimised for this machine's CPU (VFX_NATIVE=ON), and a package built "
    "from it may not run on another. Package a portable build instead:\n"
    "  cmake -S <source> -B build-package -DVFX_NATIVE=OFF -DVFX_BUILD_TESTS=OFF -DVFX_BUILD_BENCH=OFF\n"
    "  cmake --build build-package -j2 && (cd build-package && cpack -G DEB)")
endif()
