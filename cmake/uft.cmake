# SPDX-License-Identifier: LGPL-2.1-or-later
# uft for CMake projects, from a checkout (an installed uft has
# find_package(uft) instead: see uftConfig.cmake.in).
#
#   include(/path/to/uft/cmake/uft.cmake)
#   uft_target_traceable(myprog)            # function tracers can patch myprog
#   target_link_libraries(myprog PRIVATE uft::uft)
#
# uft::uft is the libuft.so of the checkout's build folder (UFT_BUILD_DIR,
# default build/, as `make` leaves it); UFT_VERSION is the VERSION file's.
# A build folder without libuft stops the configuration with a message.

include("${CMAKE_CURRENT_LIST_DIR}/uftTraceable.cmake")

get_filename_component(_uft_src "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(UFT_BUILD_DIR "${_uft_src}/build" CACHE PATH "uft's build folder (make BUILD=...)")
file(STRINGS "${_uft_src}/VERSION" UFT_VERSION LIMIT_COUNT 1)

if(NOT TARGET uft::uft)
  get_filename_component(_uft_build "${UFT_BUILD_DIR}" ABSOLUTE BASE_DIR "${_uft_src}")
  set(_uft_lib "${_uft_build}/lib/libuft.so.${UFT_VERSION}")
  if(NOT EXISTS "${_uft_lib}")
    message(FATAL_ERROR "uft: ${_uft_lib} does not exist. Build uft first "
      "(make -C ${_uft_src}), point UFT_BUILD_DIR at its build folder, or "
      "use an installed uft with find_package(uft).")
  endif()
  find_package(Threads REQUIRED)
  add_library(uft::uft SHARED IMPORTED)
  set_target_properties(uft::uft PROPERTIES
    IMPORTED_LOCATION "${_uft_lib}"
    INTERFACE_INCLUDE_DIRECTORIES "${_uft_src}/include;${_uft_build}/gen"
    INTERFACE_LINK_LIBRARIES "Threads::Threads;${CMAKE_DL_LIBS}")
endif()
