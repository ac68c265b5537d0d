# SPDX-License-Identifier: LGPL-2.1-or-later
# uft for CMake projects.
#
#   include(/path/to/uft/cmake/uft.cmake)
#   uft_target_traceable(myprog)            # function tracers can patch myprog
#   target_link_libraries(myprog PRIVATE uft::uft)
#
# uft_target_traceable(TARGET) compiles TARGET's C and C++ sources with a
# 5-byte NOP sled at every function entry (-fpatchable-function-entry=5,
# gcc and clang, programs and shared libraries, PIE or not), which the
# function and function_graph tracers patch into a call while they trace the
# function. Without a tracer the sled costs a NOP per call.

set(UFT_TRACE_CFLAGS "-fpatchable-function-entry=5" CACHE STRING
    "Compiler flags that make code patchable by uft's function tracers")

function(uft_target_traceable target)
  separate_arguments(_uft_flags UNIX_COMMAND "${UFT_TRACE_CFLAGS}")
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C,CXX>:${_uft_flags}>)
endfunction()

# uft::uft, from the pkg-config file of a build or an installation
# (PKG_CONFIG_PATH=/path/to/uft/build/lib/pkgconfig); UFT_VERSION is then
# uft's version (the VERSION file of its source tree).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND AND NOT TARGET uft::uft)
  pkg_check_modules(UFT QUIET IMPORTED_TARGET uft)
  if(UFT_FOUND)
    add_library(uft::uft ALIAS PkgConfig::UFT)
    pkg_get_variable(_uft_pc_flags uft uft_trace_cflags)
    if(_uft_pc_flags)
      set(UFT_TRACE_CFLAGS "${_uft_pc_flags}" CACHE STRING
          "Compiler flags that make code patchable by uft's function tracers" FORCE)
    endif()
  endif()
endif()
