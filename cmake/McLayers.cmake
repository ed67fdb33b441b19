# Which library may link which: the layering of docs/design.md, checked at configure time.
# Each mc_* library and program may link only the mc_* libraries named for it here (its direct
# links; what those bring is checked at their own row). A new link that is not in this table
# fails configure, so the layering changes only on purpose, in this file and in the docs.
# mc_base (std-only helpers: text, whole files) links nothing, and every row may link it.
set(MC_MAY_LINK_mc_base "")
set(MC_MAY_LINK_mc_sched_core "")
set(MC_MAY_LINK_mc_protocol "")
# The one JSON form of a job (spec, record, launch order): every hop links it, and no hop
# spells a job key of its own.
set(MC_MAY_LINK_mc_job_record mc_sched_core mc_protocol)
# The job options of sbatch, srun and salloc: the table, the parser and the apply to a job spec.
set(MC_MAY_LINK_mc_job_options mc_sched_core)
# The scenario lines are sbatch's options, read through the commands' one table and apply.
set(MC_MAY_LINK_mc_simulator mc_sched_core mc_job_record mc_job_options)
set(MC_MAY_LINK_mc_accounting mc_sched_core mc_protocol mc_job_record)
set(MC_MAY_LINK_mc_controller mc_sched_core mc_accounting mc_protocol mc_job_record)
set(MC_MAY_LINK_mc_commands mc_job_options mc_sched_core mc_protocol mc_job_record)
set(MC_MAY_LINK_mc_cmd_interactive mc_commands)
set(MC_MAY_LINK_mc_emu_model mc_sched_core)
set(MC_MAY_LINK_mc_emu_runtime mc_emu_model mc_protocol mc_sched_core mc_job_record)
set(MC_MAY_LINK_mc_storage mc_emu_model mc_protocol mc_sched_core)
# Apptainer on the nodes: std-only, links nothing of ours.
set(MC_MAY_LINK_mc_containers "")
set(MC_MAY_LINK_mc_lessons mc_protocol mc_emu_model mc_sched_core mc_job_record)
set(MC_MAY_LINK_mc_workstation mc_emu_runtime mc_emu_model mc_sched_core)
# The `minicluster` command is the top of the emulator: it starts everything, and runs the
# `lesson` and `scenario` subcommands.
set(MC_MAY_LINK_mc_launcher mc_emu_runtime mc_sched_core mc_protocol mc_storage mc_lessons
    mc_workstation)
set(MC_MAY_LINK_mc_term_core "")
set(MC_MAY_LINK_mc_term_widget mc_term_core)
# The Filesystems view reads the storage node's usage and purge rules (std-only libraries); the
# background load reads SWF traces with the simulator's one reader.
set(MC_MAY_LINK_mc_gui_models mc_protocol mc_sched_core mc_emu_model mc_storage mc_simulator
    mc_job_record mc_job_options)
set(MC_MAY_LINK_mc_gui_app mc_gui_models mc_term_core mc_term_widget mc_lessons mc_protocol
    mc_sched_core)

# Programs: a thin main over its folder's library.
set(MC_MAY_LINK_minicluster-simulate mc_simulator)
set(MC_MAY_LINK_minicluster-ctld mc_controller)
foreach(cmd squeue scancel sacct sinfo scontrol sq sprio sshare sacctmgr
    bsub bjobs bkill bqueues bhosts bpeek bstop bresume qsub qstat qdel pbsnodes)
  set(MC_MAY_LINK_${cmd} mc_commands)
endforeach()
# sbatch tells a student over quota at submission, as the Alliance's sbatch does.
set(MC_MAY_LINK_sbatch mc_commands mc_storage)
foreach(cmd srun salloc sstat seff)
  set(MC_MAY_LINK_${cmd} mc_cmd_interactive)
endforeach()
set(MC_MAY_LINK_minicluster mc_launcher)
set(MC_MAY_LINK_minicluster-noded mc_emu_runtime)
set(MC_MAY_LINK_minicluster-sandboxd mc_emu_runtime)
set(MC_MAY_LINK_minicluster-logind mc_emu_runtime)
foreach(p minicluster-stored diskusage_report minicluster-login-notice)
  set(MC_MAY_LINK_${p} mc_storage)
endforeach()
set(MC_MAY_LINK_apptainer mc_containers)
set(MC_MAY_LINK_minicluster-gui mc_gui_app mc_gui_models)
# DTU's bstat and classstat only say that minicluster does not have them.
set(MC_MAY_LINK_bstat "")
set(MC_MAY_LINK_classstat "")

# mc_check_layers(): fails configure on a link the table does not allow, and on an mc_* library
# or program the table does not know.
function(mc_check_layers)
  get_property(targets GLOBAL PROPERTY MC_LAYERED_TARGETS)
  set(errors "")
  foreach(t IN LISTS targets)
    if(NOT DEFINED MC_MAY_LINK_${t})
      string(APPEND errors "\n  ${t} is not in cmake/McLayers.cmake: say what it may link")
      continue()
    endif()
    get_target_property(libs ${t} LINK_LIBRARIES)
    if(NOT libs)
      continue()
    endif()
    foreach(lib IN LISTS libs)
      if(lib MATCHES "^mc_" AND NOT lib STREQUAL "mc_warnings" AND NOT lib STREQUAL "mc_base"
         AND NOT lib IN_LIST MC_MAY_LINK_${t})
        string(APPEND errors "\n  ${t} links ${lib}, which cmake/McLayers.cmake does not allow")
      endif()
    endforeach()
  endforeach()
  if(errors)
    message(FATAL_ERROR "layering: ${errors}")
  endif()
endfunction()
