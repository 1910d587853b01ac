# SPDX-License-Identifier: Apache-2.0
# Run by CPack on the staged files before it packs them (CPACK_PRE_BUILD_SCRIPTS):
# removes the sections dh_strip removes from every ELF file, .comment (the
# compiler's version string) and .note, which CMake's own strip leaves.
file(GLOB_RECURSE staged LIST_DIRECTORIES false "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*")
foreach(path IN LISTS staged)
  if(IS_SYMLINK "${path}")
    continue()
  endif()
  file(READ "${path}" magic LIMIT 4 HEX)
  if(magic STREQUAL "7f454c46")
    execute_process(COMMAND "${CPACK_SCTP_PERF_STRIP}" --remove-section=.comment
                            --remove-section=.note "${path}"
                    COMMAND_ERROR_IS_FATAL ANY)
  endif()
endforeach()
