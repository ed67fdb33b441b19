#pragma once
// `scontrol show config`: every key Slurm 22.05 prints, in its order, with the value from the
// cluster's slurm.conf or else Slurm's default, then cgroup.conf's section and the controller's
// state. BOOT_TIME and NEXT_JOB_ID are the controller's (its `ping` reply); a controller that does
// not report them has those lines left out.

#include "mc/cmd/context.h"

#include <cstdint>
#include <string>

namespace mc::cmd::scontrol {

struct ConfigFacts {
    std::string slurmConf; // the text of slurm.conf
    std::string confPath; // $SLURM_CONF
    std::string clusterName; // the controller's
    std::string hostname; // where the controller answers (Slurm: the host's name)
    std::int64_t now = 0; // the cluster clock, for "Configuration data as of"
    std::int64_t bootTime = 0; // when the controller started; 0: not known
    std::int64_t nextJobId = 0; // the id the next submission gets; 0: not known
    UserLookup lookupUser; // SlurmUser's uid; may be empty
};

std::string configText(const ConfigFacts &facts);

} // namespace mc::cmd::scontrol
