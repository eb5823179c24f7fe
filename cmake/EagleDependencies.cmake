# Finds eagle's dependencies: Kokkos, under one name, and hwloc.
#
# Kokkos gets one name, Eagle::kokkos, whichever way it was installed:
#  - a native Kokkos 3.x/4.x install (its config exports Kokkos::kokkos), e.g. via -DKokkos_ROOT;
#  - Debian's prebuilt libtrilinos-kokkos-dev, whose TriBITS config exports plain variables and
#    trilinos_* targets (and a Kokkos::kokkos whose include path is wrong).
# Sets EAGLE_KOKKOS_DEVICES (e.g. OPENMP;SERIAL) and EAGLE_KOKKOS_VERSION in the caller's scope.
# A macro, not a function, so that find_package's variables reach the caller.
macro(eagle_find_dependencies)
  if(NOT TARGET Kokkos::kokkos AND NOT TARGET trilinos_kokkoscore)
    find_package(Kokkos REQUIRED)
  endif()

  if(NOT TARGET Eagle::kokkos)
    add_library(Eagle::kokkos INTERFACE IMPORTED GLOBAL)
    # TriBITS first: Debian's config also defines a Kokkos::kokkos, but with a wrong include path.
    if(TARGET trilinos_kokkoscore)
      # TriBITS targets carry no include directories, and Debian's Kokkos_INCLUDE_DIRS points one
      # level off (/usr/lib/include): look for the header itself, the config's guess first.
      find_path(EAGLE_KOKKOS_INCLUDE_DIR Kokkos_Core.hpp HINTS ${Kokkos_INCLUDE_DIRS} PATH_SUFFIXES trilinos)
      if(NOT EAGLE_KOKKOS_INCLUDE_DIR)
        message(FATAL_ERROR "eagle: Kokkos at '${Kokkos_DIR}' is a TriBITS install, but Kokkos_Core.hpp "
                            "is not under '${Kokkos_INCLUDE_DIRS}' nor <prefix>/include/trilinos")
      endif()
      target_include_directories(Eagle::kokkos INTERFACE ${EAGLE_KOKKOS_INCLUDE_DIR})
      target_link_libraries(Eagle::kokkos INTERFACE ${Kokkos_LIBRARIES})
    elseif(TARGET Kokkos::kokkos)
      target_link_libraries(Eagle::kokkos INTERFACE Kokkos::kokkos)
    else()
      message(FATAL_ERROR "eagle: found Kokkos at '${Kokkos_DIR}', but it exports neither Kokkos::kokkos "
                          "nor trilinos_kokkoscore; point -DKokkos_ROOT at a Kokkos 3.4 to 4.x install")
    endif()
  endif()

  set(EAGLE_KOKKOS_DEVICES ${Kokkos_DEVICES})
  set(EAGLE_KOKKOS_VERSION ${Kokkos_VERSION})
  if(NOT EAGLE_KOKKOS_VERSION)
    set(EAGLE_KOKKOS_VERSION "3.4.1 (Trilinos)")
  endif()
  # Kokkos 3.4 calls the Threads backend PTHREAD; eagle's tests use the class name.
  list(TRANSFORM EAGLE_KOKKOS_DEVICES REPLACE "^PTHREAD$" "THREADS")

  # Kokkos Kernels is optional: only models that solve with KokkosBatched need it. Sets
  # EAGLE_HAS_KOKKOS_KERNELS and, when found, Eagle::kokkoskernels.
  # It must belong to the same Kokkos: Debian's TriBITS one beside Debian's Kokkos, a native one
  # beside a native Kokkos (its prefix, or KokkosKernels_ROOT/_DIR), never one found elsewhere on
  # the system for another Kokkos.
  if(NOT TARGET Eagle::kokkoskernels)
    if(TARGET trilinos_kokkoscore)
      if(NOT TARGET trilinos_kokkoskernels)
        find_package(KokkosKernels QUIET)
      endif()
      if(TARGET trilinos_kokkoskernels)
        add_library(Eagle::kokkoskernels INTERFACE IMPORTED GLOBAL)
        target_link_libraries(Eagle::kokkoskernels INTERFACE trilinos_kokkoskernels Eagle::kokkos)
      endif()
    else()
      if(NOT TARGET Kokkos::kokkoskernels)
        get_filename_component(eagle_kokkos_prefix "${Kokkos_DIR}/../../.." ABSOLUTE)
        find_package(KokkosKernels QUIET HINTS "${eagle_kokkos_prefix}" NO_CMAKE_PACKAGE_REGISTRY
                     NO_CMAKE_SYSTEM_PACKAGE_REGISTRY NO_CMAKE_SYSTEM_PATH)
      endif()
      if(TARGET Kokkos::kokkoskernels)
        add_library(Eagle::kokkoskernels INTERFACE IMPORTED GLOBAL)
        target_link_libraries(Eagle::kokkoskernels INTERFACE Kokkos::kokkoskernels Eagle::kokkos)
      endif()
    endif()
  endif()
  if(TARGET Eagle::kokkoskernels)
    set(EAGLE_HAS_KOKKOS_KERNELS ON)
  else()
    set(EAGLE_HAS_KOKKOS_KERNELS OFF)
  endif()

  # hwloc ships pkg-config files, not a CMake package.
  if(NOT TARGET PkgConfig::HWLOC)
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET GLOBAL hwloc>=2.0)
  endif()
endmacro()
