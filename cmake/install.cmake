# What `cmake --install build --prefix P` and `cpack -G DEB` deliver:
#   P/lib/libvortonfx.a (or .so with BUILD_SHARED_LIBS=ON)   target vortonfx::vortonfx
#   P/lib/libvortonfx_vdb.a                                    target vortonfx::vdb (OpenVDB bake)
#   P/include/vortonfx/{core,sim,bodies,scene,export}/*.hpp, P/include/vortonfx/version.hpp
#   P/lib/cmake/vortonfx/vortonfxConfig*.cmake, P/lib/pkgconfig/vortonfx.pc
#   P/bin/vortonfx-sim, P/bin/vortonfx, P/share/vortonfx/{scenes,shaders}
#   P/lib/python3/dist-packages/vortonfx*.so (the Python module, python/), and
#   P/share/vortonfx/blender/vortonfx_addon.zip (the Blender add-on), with VFX_BUILD_PYTHON
# Only the library's modules are installed as headers: never render, ui or app.
include(CMakePackageConfigHelpers)
set(VFX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/vortonfx)

# The installed programs find the presets and shaders in ../share/vortonfx; the build tree
# offers the same layout through links, so no source path is compiled in anywhere.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/vortonfx)
foreach(resource scenes shaders)
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${resource} ${CMAKE_BINARY_DIR}/share/vortonfx/${resource} SYMBOLIC)
endforeach()

install(TARGETS vortonfx_lib EXPORT vortonfxTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS vortonfx_vdb EXPORT vortonfxVdbTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(module IN LISTS VFX_LIBRARY_MODULES)
  install(DIRECTORY src/${module}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vortonfx/${module}
    FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${VFX_INCLUDE_DIR}/vortonfx/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vortonfx)

install(TARGETS vortonfx-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET vortonfx)
  install(TARGETS vortonfx RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY scenes shaders DESTINATION ${CMAKE_INSTALL_DATADIR}/vortonfx)

install(EXPORT vortonfxTargets NAMESPACE vortonfx:: DESTINATION ${VFX_CMAKE_DIR})
install(EXPORT vortonfxVdbTargets NAMESPACE vortonfx:: DESTINATION ${VFX_CMAKE_DIR})
configure_package_config_file(cmake/vortonfxConfig.cmake.in ${CMAKE_BINARY_DIR}/vortonfxConfig.cmake
  INSTALL_DESTINATION ${VFX_CMAKE_DIR})
# 0.x: a new minor version may change the interface, so only the same minor version matches.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/vortonfxConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/vortonfxConfig.cmake ${CMAKE_BINARY_DIR}/vortonfxConfigVersion.cmake
  DESTINATION ${VFX_CMAKE_DIR})

file(RELATIVE_PATH VFX_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(cmake/vortonfx.pc.in ${CMAKE_BINARY_DIR}/vortonfx.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/vortonfx.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# --- .deb: cpack -G DEB in the build directory ------------------------------------------------
set(CPACK_PACKAGE_NAME vortonfx)
set(CPACK_PACKAGE_VENDOR "vortonfx")
set(CPACK_PACKAGE_CONTACT "vortonfx maintainers <vortonfx@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
# The programs' shared libraries are found by dpkg-shlibdeps; a consumer's CMake project also
# needs the headers of what the library's interface exposes.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# GLFW opens libGL at run time, so dpkg-shlibdeps cannot see it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libtbb-dev, libglm-dev, nlohmann-json3-dev, libfftw3-dev, libgl1")
# The Python module's arrays are NumPy's; the add-on runs in Debian's Blender.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri, python3-numpy")
# What linking vortonfx::vdb (the OpenVDB bake) needs.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libopenvdb-dev, libimath-dev, libboost-dev, blender")
# A package goes to other machines: a build for this CPU alone (-march=native) could stop with an
# illegal instruction there, so packaging it is refused with a message saying what to do.
if((VFX_NATIVE AND NOT VFX_SANITIZE) OR CMAKE_CXX_FLAGS MATCHES "-march=native")
  set(CPACK_VFX_NATIVE_BUILD ON)
else()
  set(CPACK_VFX_NATIVE_BUILD OFF)
endif()
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/package_guard.cmake)
include(CPack)
