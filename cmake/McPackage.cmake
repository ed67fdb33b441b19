# Installing and packaging. The build tree is already laid out as an installed prefix
# (<build>/bin next to <build>/share/minicluster and <build>/share/man, found at run time as
# <bin>/../share/...), so the install copies those trees as they are.
#
#   cmake --build --preset release --target package   ->  build/release/minicluster_<v>_<arch>.deb
#
# The .deb installs under /opt/minicluster (its bin/ holds sbatch, squeue, ...: they must not
# shadow a real Slurm's /usr/bin commands on the same machine) with /usr/bin/minicluster and
# /usr/bin/minicluster-gui as links. Depends: the shared libraries' packages (dpkg-shlibdeps)
# and the programs the cluster runs on the host, from scripts/deps.sh's runtime list.
install(DIRECTORY ${MC_BIN_DIR}/ DESTINATION bin USE_SOURCE_PERMISSIONS
    PATTERN "*_bench" EXCLUDE)
install(DIRECTORY ${PROJECT_BINARY_DIR}/share/minicluster DESTINATION share
    USE_SOURCE_PERMISSIONS PATTERN python-stacks EXCLUDE)
# The ML wheels are Debian's installed packages repacked (software/python/debian_wheels.py):
# the package leaves them out and its postinst makes them again from its Depends:.
install(CODE [=[
  set(house "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/share/minicluster/software/wheelhouse")
  if(EXISTS "${house}/debian-wheels.txt")
    file(STRINGS "${house}/debian-wheels.txt" rows REGEX "^[^#]")
    foreach(row IN LISTS rows)
      string(REGEX REPLACE ".* " "" wheel "${row}")
      file(REMOVE "${house}/${wheel}")
    endforeach()
    file(REMOVE "${house}/debian-wheels.txt")
  endif()
]=])

execute_process(COMMAND ${PROJECT_SOURCE_DIR}/scripts/deps.sh --list runtime
    OUTPUT_VARIABLE mc_runtime_pkgs OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "scripts/deps.sh --list runtime failed")
endif()
string(REPLACE "\n" ", " mc_runtime_pkgs "${mc_runtime_pkgs}")

set(mc_pkg_scripts ${PROJECT_BINARY_DIR}/package)
file(MAKE_DIRECTORY ${mc_pkg_scripts})
file(WRITE ${mc_pkg_scripts}/postinst [=[#!/bin/sh
set -e
if [ "$1" = configure ]; then
  rebuild=/opt/minicluster/share/minicluster/software/debian-wheels/rebuild
  if [ -x "$rebuild" ]; then
    "$rebuild" >/dev/null
  fi
  ln -sf /opt/minicluster/bin/minicluster /usr/bin/minicluster
  ln -sf /opt/minicluster/bin/minicluster-gui /usr/bin/minicluster-gui
fi
]=])
file(WRITE ${mc_pkg_scripts}/prerm [=[#!/bin/sh
set -e
sw=/opt/minicluster/share/minicluster/software
if [ -f "$sw/wheelhouse/debian-wheels.txt" ]; then
  grep -v '^#' "$sw/wheelhouse/debian-wheels.txt" | awk '{print $NF}' \
    | (cd "$sw/wheelhouse" && xargs -r rm -f)
  rm -f "$sw/wheelhouse/debian-wheels.txt"
fi
rm -rf "$sw/python-stacks"
for l in /usr/bin/minicluster /usr/bin/minicluster-gui; do
  if [ -L "$l" ] && [ "$(readlink "$l")" = "/opt/minicluster/bin/$(basename "$l")" ]; then
    rm -f "$l"
  fi
done
]=])
file(CHMOD ${mc_pkg_scripts}/postinst ${mc_pkg_scripts}/prerm
    PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ
    WORLD_EXECUTE)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME minicluster)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "minicluster developers <minicluster@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "a small Slurm HPC cluster on your laptop, for learning")
set(CPACK_PACKAGE_DESCRIPTION "Emulated login and compute nodes run as local sandboxed \
processes; a scheduler answers Slurm's own commands with Slurm's own output; an app shows the \
queue, the nodes, a timeline and the filesystems around a real terminal.")
set(CPACK_PACKAGING_INSTALL_PREFIX /opt/minicluster)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${mc_runtime_pkgs}")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${mc_pkg_scripts}/postinst;${mc_pkg_scripts}/prerm")
set(CPACK_STRIP_FILES ON)
include(CPack)
