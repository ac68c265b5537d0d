# SPDX-License-Identifier: LGPL-2.1-or-later
# uft_target_traceable(TARGET): compiles TARGET's C and C++ sources with a
# 5-byte NOP sled at every function entry (-fpatchable-function-entry=5,
# gcc and clang, programs and shared libraries, PIE or not), which the
# function and function_graph tracers patch into a call while they trace the
# function. Without a tracer the sled costs a NOP per call. Included by
# the installed package (cmake/uftConfig.cmake.in) and cmake/uft.cmake (a
# checkout).

set(UFT_TRACE_CFLAGS "-fpatchable-function-entry=5" CACHE STRING
    "Compiler flags that make code patchable by uft's function tracers")

function(uft_target_traceable target)
  separate_arguments(_uft_flags UNIX_COMMAND "${UFT_TRACE_CFLAGS}")
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C,CXX>:${_uft_flags}>)
endfunction()
