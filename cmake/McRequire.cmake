# What the build needs from the system, found before anything else, so that a missing package is
# named in one sentence with the command that installs it, instead of a CMake trace from deep
# inside a Qt config file. scripts/deps.sh installs all of it; scripts/check-deps.py (CI) checks
# that deps.sh names every package the build and the run really use.
set(MC_QT_MIN 6.4)
set(mc_missing "")

function(mc_need what package)
  set(mc_missing "${mc_missing}\n  - ${what}: Debian/Ubuntu package ${package}" PARENT_SCOPE)
  set(mc_missing_pkgs ${mc_missing_pkgs} ${package} PARENT_SCOPE)
endfunction()

find_package(SQLite3 QUIET)
if(NOT SQLite3_FOUND)
  mc_need("SQLite 3 headers" libsqlite3-dev)
endif()
find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  mc_need("pkg-config" pkg-config)
else()
  pkg_check_modules(mc_probe_vterm QUIET vterm)
  if(NOT mc_probe_vterm_FOUND)
    mc_need("libvterm (the app's terminal)" libvterm-dev)
  endif()
endif()

find_package(Qt6 QUIET COMPONENTS Core)
if(NOT Qt6Core_FOUND)
  mc_need("Qt 6 (${MC_QT_MIN} or newer)" "qt6-base-dev qt6-base-dev-tools")
elseif(Qt6Core_VERSION VERSION_LESS MC_QT_MIN)
  message(FATAL_ERROR "minicluster needs Qt ${MC_QT_MIN} or newer; this system has Qt "
      "${Qt6Core_VERSION} (Ubuntu 22.04 ships 6.2: use Ubuntu 24.04 or Debian 12).")
else()
  # Each component with the package that brings it (Charts also needs Qt6OpenGL's CMake files).
  foreach(pair "Gui;qt6-base-dev" "Widgets;qt6-base-dev" "Test;qt6-base-dev"
               "OpenGL;libqt6opengl6-dev" "Charts;qt6-charts-dev" "LinguistTools;qt6-tools-dev")
    list(GET pair 0 component)
    list(GET pair 1 package)
    find_package(Qt6${component} ${Qt6Core_VERSION} QUIET EXACT
        PATHS ${Qt6_DIR}/.. NO_DEFAULT_PATH)
    if(NOT Qt6${component}_FOUND)
      mc_need("Qt 6 ${component}" ${package})
    endif()
  endforeach()
endif()

if(mc_missing)
  list(REMOVE_DUPLICATES mc_missing_pkgs)
  string(REPLACE ";" " " mc_missing_pkgs "${mc_missing_pkgs}")
  message(FATAL_ERROR "minicluster cannot be built: missing on this system:${mc_missing}\n"
      "Install them with scripts/deps.sh, or:\n"
      "  sudo apt-get install --no-install-recommends ${mc_missing_pkgs}\n")
endif()
