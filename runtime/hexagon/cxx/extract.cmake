# Unpacks libc++'s headers from Debian's libc++-22-dev package (the .deb that
# utils/setup.sh downloads with `apt-get download`, never installs) into
# DEST, the build tree's include/c++/v1 for Hexagon C++ (cmake -P, run by the
# build; nothing unpacked is committed). The package's __config_site (an
# x86-64 configuration with threads and localization) is removed: the build
# installs runtime/hexagon/cxx/__config_site in its place.
#   cmake -DDEB=... -DDPKG=... -DWORK=... -DDEST=... -DSTAMP=... -P extract.cmake
cmake_minimum_required(VERSION 3.21)
file(REMOVE_RECURSE ${WORK} ${DEST})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${DPKG} -x ${DEB} ${WORK} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "libc++ headers: `${DPKG} -x ${DEB}` failed (${rc})")
endif()
set(v1 ${WORK}/usr/lib/llvm-22/include/c++/v1)
if(NOT EXISTS ${v1}/vector OR NOT EXISTS ${v1}/__config)
  message(FATAL_ERROR "libc++ headers: no usr/lib/llvm-22/include/c++/v1 in ${DEB}")
endif()
get_filename_component(parent ${DEST} DIRECTORY)
file(MAKE_DIRECTORY ${parent})
file(COPY ${v1} DESTINATION ${parent})
file(REMOVE ${DEST}/__config_site)
file(REMOVE_RECURSE ${WORK})
file(TOUCH ${STAMP})
