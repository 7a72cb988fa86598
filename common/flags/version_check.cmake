# ctest: BINARY --version names the commit the binary was built from, and a build date.
#
#   cmake -DBINARY=... -DSOURCE_DIR=... [-DEXPECTED_COMMIT=...] -P version_check.cmake
#
# The commit must be EXPECTED_COMMIT (the VC_GIT_COMMIT cache variable, else the environment
# variable) when one is given, else `git rev-parse HEAD` (with or without "-dirty"). When HEAD
# moved after the binary was linked (someone committed while the tests ran), the test is skipped;
# a binary that names another commit although HEAD is older than the binary fails: its stamp is
# stale. Outside a git checkout, with no expected commit, the SHA must read "Not provided.".

execute_process(COMMAND "${BINARY}" --version OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${BINARY} --version exited ${rc}:\n${out}")
endif()
message(STATUS "${BINARY} --version:\n${out}")
if(NOT out MATCHES "\nGit SHA: ([^\n]*)\n")
  message(FATAL_ERROR "no Git SHA line")
endif()
set(sha "${CMAKE_MATCH_1}")
if(NOT out MATCHES "\nBuilt At: [0-9-]+T[0-9:]+Z\n")
  message(FATAL_ERROR "no RFC 3339 UTC Built At line")
endif()

if("${EXPECTED_COMMIT}" STREQUAL "" AND DEFINED ENV{VC_GIT_COMMIT})
  set(EXPECTED_COMMIT "$ENV{VC_GIT_COMMIT}")
endif()
if(NOT "${EXPECTED_COMMIT}" STREQUAL "")
  if(NOT sha STREQUAL EXPECTED_COMMIT)
    message(FATAL_ERROR "Git SHA \"${sha}\", want VC_GIT_COMMIT \"${EXPECTED_COMMIT}\"")
  endif()
  return()
endif()

execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse HEAD OUTPUT_VARIABLE head
                RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT rc EQUAL 0)
  if(NOT sha STREQUAL "Not provided.")
    message(FATAL_ERROR "not a git checkout, yet Git SHA is \"${sha}\"")
  endif()
  return()
endif()
string(REGEX REPLACE "-dirty$" "" built_from "${sha}")
if(built_from STREQUAL head)
  return()
endif()
execute_process(COMMAND git -C "${SOURCE_DIR}" log -1 --format=%ct HEAD OUTPUT_VARIABLE head_time
                OUTPUT_STRIP_TRAILING_WHITESPACE)
file(TIMESTAMP "${BINARY}" binary_time "%s")
if(head_time GREATER binary_time)
  message(STATUS "SKIPPED: HEAD (${head}) was committed after ${BINARY} was built from ${sha}")
  return()
endif()
message(FATAL_ERROR "Git SHA \"${sha}\" is not HEAD ${head}, which is older than the binary: "
                    "the build stamp is stale")
