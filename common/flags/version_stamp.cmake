# Writes the build stamp of build_info() (common/flags/version.h), the commit and the build date,
# into OUTPUT from TEMPLATE. Runs at every build (cmake -P, target vc_version_stamp) and rewrites
# OUTPUT only when its content changes, so an unchanged commit recompiles and relinks nothing.
#
#   cmake -DSOURCE_DIR=... -DTEMPLATE=.../version_stamp.cpp.in -DOUTPUT=.../version_stamp.cpp
#         [-DVC_GIT_COMMIT=...] [-DVC_BUILD_DATE=...] -P version_stamp.cmake
#
# Commit: VC_GIT_COMMIT (the cache variable, else the environment variable); else, when
#   SOURCE_DIR is the top of a git work tree, `git rev-parse HEAD`, with "-dirty" appended when
#   `git status --porcelain` lists anything (untracked files too: a new source file is built in);
#   else "" (a source tarball without overrides).
# Date, RFC 3339 UTC: VC_BUILD_DATE (cache variable, else environment); else SOURCE_DATE_EPOCH
#   (environment, seconds since the epoch); else the time of the first build of this commit in
#   this build directory: the date already in OUTPUT is kept while the commit is the same.

foreach(var SOURCE_DIR TEMPLATE OUTPUT)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "version_stamp.cmake: -D${var}=... is required")
  endif()
endforeach()

set(commit "${VC_GIT_COMMIT}")
if(commit STREQUAL "" AND DEFINED ENV{VC_GIT_COMMIT})
  set(commit "$ENV{VC_GIT_COMMIT}")
endif()
if(commit STREQUAL "")
  find_program(GIT_EXECUTABLE git)
  if(GIT_EXECUTABLE)
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" rev-parse --show-toplevel HEAD
                    OUTPUT_VARIABLE rev_parse RESULT_VARIABLE rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    file(REAL_PATH "${SOURCE_DIR}" source_dir)
    # A tarball unpacked inside some other repository is not a checkout of ours.
    if(rc EQUAL 0 AND rev_parse MATCHES "^([^\n]*)\n([0-9a-f]+)$")
      set(head "${CMAKE_MATCH_2}")
      file(REAL_PATH "${CMAKE_MATCH_1}" top)
      if(top STREQUAL source_dir)
        # --no-optional-locks: never take index.lock, which a concurrent `git add` may hold.
        execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" --no-optional-locks
                                status --porcelain
                        OUTPUT_VARIABLE changes RESULT_VARIABLE rc ERROR_QUIET)
        set(commit "${head}")
        if(NOT rc EQUAL 0 OR NOT changes STREQUAL "")
          string(APPEND commit "-dirty")
        endif()
      endif()
    endif()
  endif()
endif()
if(NOT commit MATCHES "^[A-Za-z0-9._+-]*$")
  message(FATAL_ERROR "VC_GIT_COMMIT \"${commit}\": use letters, digits and . _ + - only")
endif()

set(date "${VC_BUILD_DATE}")
if(date STREQUAL "" AND DEFINED ENV{VC_BUILD_DATE})
  set(date "$ENV{VC_BUILD_DATE}")
endif()
if(date STREQUAL "" AND NOT "$ENV{SOURCE_DATE_EPOCH}" STREQUAL "")
  if(NOT "$ENV{SOURCE_DATE_EPOCH}" MATCHES "^[0-9]+$")
    message(FATAL_ERROR "SOURCE_DATE_EPOCH \"$ENV{SOURCE_DATE_EPOCH}\": want seconds since 1970")
  endif()
  # string(TIMESTAMP) takes SOURCE_DATE_EPOCH for the current time.
  string(TIMESTAMP date "%Y-%m-%dT%H:%M:%SZ" UTC)
endif()
if(date STREQUAL "" AND EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous MATCHES "kGitCommit = \"([^\"]*)\";[^\n]*\n[^\n]*kBuildDate = \"([^\"]*)\";"
     AND CMAKE_MATCH_1 STREQUAL commit)
    set(date "${CMAKE_MATCH_2}")
  endif()
endif()
if(date STREQUAL "")
  string(TIMESTAMP date "%Y-%m-%dT%H:%M:%SZ" UTC)
endif()
if(NOT date MATCHES "^[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z$")
  message(FATAL_ERROR "VC_BUILD_DATE \"${date}\": want RFC 3339 UTC, e.g. 2025-06-01T12:00:00Z")
endif()

set(VC_STAMP_COMMIT "${commit}")
set(VC_STAMP_DATE "${date}")
# configure_file leaves OUTPUT (and its time stamp) alone when the content is the same.
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
