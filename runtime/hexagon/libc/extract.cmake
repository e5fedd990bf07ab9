# Extracts newlib's C library and libm sources from Debian's newlib-source
# tarball into NEWLIB_DIR (cmake -P, run by the build; nothing extracted is
# committed). The tarball's top folder (newlib-salsa in Debian 12) is renamed
# to NEWLIB_DIR, so the build's paths do not depend on it.
#   cmake -DTARBALL=... -DNEWLIB_DIR=... -DSTAMP=... -P extract.cmake
file(REMOVE_RECURSE ${NEWLIB_DIR} ${NEWLIB_DIR}.tmp)
file(MAKE_DIRECTORY ${NEWLIB_DIR}.tmp)
file(ARCHIVE_EXTRACT INPUT ${TARBALL} DESTINATION ${NEWLIB_DIR}.tmp
  PATTERNS "*/newlib/libc/*" "*/newlib/libm/*" "*/COPYING.NEWLIB")
file(GLOB top LIST_DIRECTORIES true ${NEWLIB_DIR}.tmp/*)
list(LENGTH top n)
if(NOT n EQUAL 1 OR NOT EXISTS ${top}/newlib/libc/stdio/vfprintf.c)
  message(FATAL_ERROR "newlib: unexpected layout of ${TARBALL}")
endif()
file(RENAME ${top} ${NEWLIB_DIR})
file(REMOVE_RECURSE ${NEWLIB_DIR}.tmp)
file(TOUCH ${STAMP})
