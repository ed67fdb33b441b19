#pragma once
// The variables LSF and PBS give a batch job, for jobs submitted with bsub or qsub: their
// environment carries MINICLUSTER_BATCH_SYSTEM=lsf or =pbs (set by the commands), which this
// replaces with LSB_* (IBM Spectrum LSF 10.1) or PBS_* (OpenPBS) variables. The job keeps
// Slurm's SLURM_* variables as well.

#include "mc/emu/job_environment.h"

#include <map>
#include <string>

namespace mc::emu {

// Adds the variables to `env` (name -> value) and removes the marker. PBS_NODEFILE is
// facts.nodeFilePath, where the node writes pbsNodeFileText().
void addForeignVariables(std::map<std::string, std::string> &env, const BatchJobFacts &facts);

// PBS_NODEFILE's content: each node of the job once per task it runs.
std::string pbsNodeFileText(const BatchJobFacts &facts);

} // namespace mc::emu
