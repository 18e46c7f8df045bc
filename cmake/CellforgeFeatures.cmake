# SPDX-License-Identifier: GPL-3.0-or-later
# What a build promises, and loud failure when it cannot keep the promise.
#
# Each optional feature has an option AUTO|ON|OFF. ON (what the `default` preset sets for
# every feature but CUDA) makes it required: configure stops and names the Debian packages
# that are missing. AUTO turns it on when found and says so in the summary; OFF leaves it
# out. Partial builds are explicit presets (cpu, gpu, headless), never a silent downgrade.
include_guard(GLOBAL)

set(CELLFORGE_INSTALL_HINT
    "packaging/install-deps.sh installs every package the default preset needs. A build "
    "without this feature is an explicit preset (cmake --list-presets) or -D<option>=OFF.")
string(REPLACE ";" "" CELLFORGE_INSTALL_HINT "${CELLFORGE_INSTALL_HINT}")

# Of the Debian packages named, those dpkg does not list as installed (all of them where
# dpkg is absent or every one is installed, so the message never names nothing).
function(cellforge_not_installed out packages)
  separate_arguments(candidates UNIX_COMMAND "${packages}")
  find_program(CELLFORGE_DPKG_QUERY dpkg-query)
  set(missing "")
  if(CELLFORGE_DPKG_QUERY)
    foreach(p IN LISTS candidates)
      execute_process(COMMAND ${CELLFORGE_DPKG_QUERY} -W -f=\${Status} ${p}
                      OUTPUT_VARIABLE status ERROR_QUIET)
      if(NOT status MATCHES "install ok installed")
        list(APPEND missing ${p})
      endif()
    endforeach()
  endif()
  if(NOT missing)
    set(missing ${candidates})
  endif()
  list(JOIN missing " " missing)
  set(${out} "${missing}" PARENT_SCOPE)
endfunction()

# A dependency every build needs: stop with the Debian package that provides it.
#   cellforge_require(FOUND_VAR "what it is" "debian-package ...")
function(cellforge_require found what packages)
  if(NOT ${found})
    cellforge_not_installed(packages "${packages}")
    message(FATAL_ERROR "${what} not found: install the Debian package(s) ${packages}.\n"
                        "${CELLFORGE_INSTALL_HINT}")
  endif()
endfunction()

set_property(GLOBAL PROPERTY CELLFORGE_FEATURE_LINES "")

# Records a feature for the summary; stops configure when OPTION is ON and HAVE is not.
#   cellforge_feature(LABEL OPTION HAVE "missing debian packages" "why it is off")
# LABEL is what the summary prints; the last two arguments explain a feature that is off.
function(cellforge_feature label option have missing reason)
  cellforge_not_installed(missing "${missing}")
  if(${have})
    set(state "ON")
  elseif(${option} STREQUAL "ON")
    message(FATAL_ERROR "${label} was promised (${option}=ON) but ${reason}: install the "
                        "Debian package(s) ${missing}.\n${CELLFORGE_INSTALL_HINT}")
  elseif(${option} STREQUAL "OFF")
    set(state "OFF (${option}=OFF)")
  else()
    set(state "OFF (${reason}, install ${missing})")
  endif()
  string(LENGTH "${label}" len)
  math(EXPR pad "26 - ${len}")
  if(pad LESS 1)
    set(pad 1)
  endif()
  string(REPEAT " " ${pad} spaces)
  set_property(GLOBAL APPEND PROPERTY CELLFORGE_FEATURE_LINES "  ${label}${spaces}${state}")
endfunction()

# The table configure ends with; the fresh-root check in CI reads it (tests/packaging).
function(cellforge_feature_summary)
  get_property(lines GLOBAL PROPERTY CELLFORGE_FEATURE_LINES)
  message(STATUS "Cellforge ${PROJECT_VERSION} features:")
  foreach(line IN LISTS lines)
    message(STATUS "${line}")
  endforeach()
endfunction()
