#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# Runs a stock Apache Ozone OM with the range compaction service attached, without rebuilding Ozone.
#
# Install: the release archive's `install` script puts this file (as a marked block) and the jars in place. By
# hand: copy this file to $OZONE_CONF_DIR/ozone-user-functions.sh (or append it to the one you have), put the
# ozone-om-compaction jar on the OM classpath, and set ozone.om.range.compaction.service.enabled=true in
# ozone-site.xml. See docs/install.md.
#
# How it hooks in (the `ozone` launcher and ozone-functions.sh of Ozone 2.x):
#   * ozone-config.sh sources $OZONE_CONF_DIR/ozone-user-functions.sh after the shell profiles, before any
#     subcommand runs;
#   * for `ozone om ...` the launcher calls the function ozone_subcommand_om with the subcommand's arguments
#     instead of its built-in case `ozonecmd_case om`, if such a function is defined;
#   * the launcher then assembles the classpath from OZONE_RUN_ARTIFACT_NAME (ozone-manager), runs the shell
#     profiles' finalize hooks, and starts OZONE_CLASSNAME (in the foreground or with --daemon) with
#     OZONE_SUBCMD_ARGS (the arguments, untouched).
# So ozone_subcommand_om below runs the stock case first, then swaps only the main class. Our class,
# io.ozonerc.compaction.om.RangeCompactionOmStarter, hands the command line to Ozone's own OzoneManagerStarter:
# `ozone om`, `--init`, `--upgrade`, `--bootstrap [--force]` parse and behave as stock.
#
# One stock hook looks at the class name: the ozone_manager shell profile (shellprofile.d/hadoop-ozone-manager.sh)
# adds OZONE_MANAGER_CLASSPATH and the Ranger multitenancy classpath only when OZONE_CLASSNAME is Ozone's
# starter. We wrap its finalize function so it sees the stock name while it runs; whatever it does, it still does.
#
# The patched OM (optional; `install --with-patched-om` from the release archive): if the folder
# OZONERC_PATCHED_OM_DIR (default: $HDDS_LIB_JARS_DIR/ozone-manager-patched, i.e. share/ozone/lib/ozone-manager-patched)
# holds jars, `ozone om` puts them in front of everything else on its classpath, so their classes (the Ozone 2.2.0
# classes dev-support/patches change) hide their stock twins. The launcher builds the classpath in this order:
# the jars of share/ozone/classpath/ozone-manager.classpath, share/ozone/web, share/ozone/lib/ozone-manager/*, the
# shell profiles' finalize hooks (OZONE_MANAGER_CLASSPATH), then ozone_finalize_classpath puts $OZONE_CONF_DIR
# first and adds OZONE_CLASSPATH last. Only a step after all of these can put a jar first, so for `ozone om` only
# we wrap ozone_finalize_classpath and prepend the overlay after it ran; every other command, SCM and the
# datanode included, keeps the stock classes. The patched KeyManagerImpl starts the service itself, so with the
# overlay the main class stays Ozone's own OzoneManagerStarter.

OZONERC_STOCK_OM_CLASS=org.apache.hadoop.ozone.om.OzoneManagerStarter
OZONERC_OM_CLASS=io.ozonerc.compaction.om.RangeCompactionOmStarter

## @description  `ozone om`: Ozone's own om subcommand, started through RangeCompactionOmStarter.
## @param        the om subcommand's arguments (--init, --upgrade, --bootstrap, ...), passed on untouched
function ozone_subcommand_om
{
  if ! declare -F ozonecmd_case >/dev/null; then
    echo "ERROR: ozone-user-functions.sh: ozonecmd_case is not defined; is this Ozone's bin/ozone?" 1>&2
    exit 1
  fi
  ozonecmd_case om "$@"

  if [[ "${OZONERC_RANGE_COMPACTION_HOOK:-on}" == off ]]; then
    return 0
  fi
  if [[ "${OZONE_CLASSNAME}" != "${OZONERC_STOCK_OM_CLASS}" ]]; then
    # A launcher we do not know: keep its class (the OM must come up) and say why there is no service.
    echo "WARNING: ozone-user-functions.sh: stock om class is '${OZONE_CLASSNAME}', not" \
      "${OZONERC_STOCK_OM_CLASS}; starting it unchanged, without range compaction" 1>&2
    return 0
  fi
  if ozonerc_patched_om_jars >/dev/null; then
    # The patched KeyManagerImpl runs the service; the stock starter stays.
    ozonerc_wrap_finalize_classpath
    return 0
  fi
  OZONE_CLASSNAME="${OZONERC_OM_CLASS}"
  ozonerc_wrap_om_profile_finalize
}

## @description  The overlay jars, one a line, sorted; fails if there are none.
function ozonerc_patched_om_jars
{
  local dir="${OZONERC_PATCHED_OM_DIR:-${HDDS_LIB_JARS_DIR}/ozone-manager-patched}"
  local jar found=1
  for jar in "${dir}"/*.jar; do
    if [[ -f "${jar}" ]]; then
      echo "${jar}"
      found=0
    fi
  done
  return ${found}
}

## @description  Makes ozone_finalize_classpath put the overlay jars in front of the classpath (once).
function ozonerc_wrap_finalize_classpath
{
  if ! declare -F ozone_finalize_classpath >/dev/null \
      || declare -F _ozonerc_stock_finalize_classpath >/dev/null; then
    return 0
  fi
  eval "_ozonerc_stock_finalize_classpath () $(declare -f ozone_finalize_classpath | tail -n +2)"
  function ozone_finalize_classpath
  {
    _ozonerc_stock_finalize_classpath "$@"
    local jars=() i rest
    mapfile -t jars < <(ozonerc_patched_om_jars)
    # Prepending in reverse keeps the folder's order; an entry already on the classpath moves to the front.
    for (( i=${#jars[@]}-1; i>=0; i-- )); do
      rest=":${CLASSPATH}:"
      rest="${rest//:${jars[i]}:/:}"
      rest="${rest#:}"
      rest="${rest%:}"
      CLASSPATH="${jars[i]}${rest:+:${rest}}"
    done
    echo "Ozone Manager classpath starts with the patched OM: ${jars[*]}"
  }
}

## @description  Makes the ozone_manager shell profile's finalize hook see the stock class name (once).
function ozonerc_wrap_om_profile_finalize
{
  if ! declare -F _ozone_manager_hadoop_finalize >/dev/null \
      || declare -F _ozonerc_stock_om_profile_finalize >/dev/null; then
    return 0
  fi
  # Rename the stock function by re-declaring its body under another name.
  eval "_ozonerc_stock_om_profile_finalize () $(declare -f _ozone_manager_hadoop_finalize | tail -n +2)"
  function _ozone_manager_hadoop_finalize
  {
    local ours="${OZONE_CLASSNAME}"
    if [[ "${ours}" == "${OZONERC_OM_CLASS}" ]]; then
      OZONE_CLASSNAME="${OZONERC_STOCK_OM_CLASS}"
    fi
    _ozonerc_stock_om_profile_finalize "$@"
    local rc=$?
    OZONE_CLASSNAME="${ours}"
    return ${rc}
  }
}
