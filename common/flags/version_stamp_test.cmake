# ctest for version_stamp.cmake: overrides, their precedence and checks, the date kept for an
# unchanged commit, and no rewrite when nothing changed.
#
#   cmake -DSCRIPT=.../version_stamp.cmake -DTEMPLATE=.../version_stamp.cpp.in -DWORK_DIR=...
#         -P version_stamp_test.cmake

unset(ENV{VC_GIT_COMMIT})
unset(ENV{VC_BUILD_DATE})
unset(ENV{SOURCE_DATE_EPOCH})
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/src")
set(out "${WORK_DIR}/stamp.cpp")

# Runs the script; extra arguments are -D definitions. Sets stamp_rc, stamp_error, stamp_commit
# and stamp_date.
function(stamp)
  execute_process(COMMAND "${CMAKE_COMMAND}" -DSOURCE_DIR=${WORK_DIR}/src -DTEMPLATE=${TEMPLATE}
                          -DOUTPUT=${out} ${ARGN} -P "${SCRIPT}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  set(stamp_rc "${rc}" PARENT_SCOPE)
  set(stamp_error "${err}" PARENT_SCOPE)
  if(rc EQUAL 0)
    file(READ "${out}" text)
    string(REGEX MATCH "kGitCommit = \"([^\"]*)\"" _ "${text}")
    set(stamp_commit "${CMAKE_MATCH_1}" PARENT_SCOPE)
    string(REGEX MATCH "kBuildDate = \"([^\"]*)\"" _ "${text}")
    set(stamp_date "${CMAKE_MATCH_1}" PARENT_SCOPE)
  endif()
endfunction()

function(expect what actual wanted)
  if(NOT "${actual}" STREQUAL "${wanted}")
    message(FATAL_ERROR "${what}: got \"${actual}\", want \"${wanted}\"")
  endif()
endfunction()

# Cache-variable overrides are written as given.
stamp(-DVC_GIT_COMMIT=v1.2.3-abc -DVC_BUILD_DATE=2024-01-02T03:04:05Z)
expect("rc" "${stamp_rc}" 0)
expect("commit" "${stamp_commit}" "v1.2.3-abc")
expect("date" "${stamp_date}" "2024-01-02T03:04:05Z")

# The same content again leaves the file alone, so nothing recompiles.
file(TIMESTAMP "${out}" before "%Y-%m-%dT%H:%M:%S.%f")
stamp(-DVC_GIT_COMMIT=v1.2.3-abc -DVC_BUILD_DATE=2024-01-02T03:04:05Z)
file(TIMESTAMP "${out}" after "%Y-%m-%dT%H:%M:%S.%f")
expect("modification time of an unchanged stamp" "${after}" "${before}")

# Environment overrides, and SOURCE_DATE_EPOCH as the date.
set(ENV{VC_GIT_COMMIT} "from-env")
set(ENV{SOURCE_DATE_EPOCH} "86400")
stamp()
expect("commit from the environment" "${stamp_commit}" "from-env")
expect("date from SOURCE_DATE_EPOCH" "${stamp_date}" "1970-01-02T00:00:00Z")
# The cache variable wins over the environment; VC_BUILD_DATE over SOURCE_DATE_EPOCH.
set(ENV{VC_BUILD_DATE} "2030-01-01T00:00:00Z")
stamp(-DVC_GIT_COMMIT=from-cache)
expect("cache over environment" "${stamp_commit}" "from-cache")
expect("VC_BUILD_DATE over SOURCE_DATE_EPOCH" "${stamp_date}" "2030-01-01T00:00:00Z")
unset(ENV{VC_GIT_COMMIT})
unset(ENV{VC_BUILD_DATE})
unset(ENV{SOURCE_DATE_EPOCH})

# Without a date override, the date of the same commit is kept; a new commit gets the time now.
file(WRITE "${out}" "constexpr const char* kGitCommit = \"c1\";\n"
                    "constexpr const char* kBuildDate = \"2001-02-03T04:05:06Z\";\n")
stamp(-DVC_GIT_COMMIT=c1)
expect("date kept for the same commit" "${stamp_date}" "2001-02-03T04:05:06Z")
string(TIMESTAMP now "%Y" UTC)
stamp(-DVC_GIT_COMMIT=c2)
string(SUBSTRING "${stamp_date}" 0 4 year)
expect("year of the date of a new commit" "${year}" "${now}")

# WORK_DIR/src lies inside the build tree, not at the top of a git work tree: no commit.
stamp()
expect("commit outside a checkout of ours" "${stamp_commit}" "")

# Bad overrides fail the build with a clear message.
stamp(-DVC_BUILD_DATE=yesterday)
if(stamp_rc EQUAL 0 OR NOT stamp_error MATCHES "want RFC 3339 UTC")
  message(FATAL_ERROR "VC_BUILD_DATE=yesterday: rc ${stamp_rc}, ${stamp_error}")
endif()
stamp("-DVC_GIT_COMMIT=a\"b")
if(stamp_rc EQUAL 0 OR NOT stamp_error MATCHES "letters, digits")
  message(FATAL_ERROR "a quote in VC_GIT_COMMIT: rc ${stamp_rc}, ${stamp_error}")
endif()
set(ENV{SOURCE_DATE_EPOCH} "soon")
stamp()
if(stamp_rc EQUAL 0 OR NOT stamp_error MATCHES "seconds since 1970")
  message(FATAL_ERROR "SOURCE_DATE_EPOCH=soon: rc ${stamp_rc}, ${stamp_error}")
endif()
