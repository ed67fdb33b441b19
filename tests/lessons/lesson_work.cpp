#include "lesson_work.h"

#include "mc/lessons/catalog.h"

#include <filesystem>
#include <fstream>

namespace mc::lessons::test {

using mc::proto::Json;

Json &Student::job(std::int64_t id, const char *name, const char *state)
{
    Json j = Json::object();
    j.set("job_id", id);
    j.set("name", name);
    j.set("user", kUser);
    j.set("account", kAccount);
    j.set("state", state);
    j.set("submit_time", 1000 + id * 10);
    j.set("start_time", 1005 + id * 10);
    j.set("end_time", state == std::string("RUNNING") ? 0 : 1008 + id * 10);
    j.set("time_limit", 3600);
    j.set("min_memory", 1000);
    j.set("num_cpus", 1);
    j.set("num_nodes", 1);
    j.set("exit_code", 0);
    j.set("partition", "cpubase_bycore_b1");
    return add(std::move(j));
}

void Student::file(const std::string &path, const std::string &content)
{
    const std::string host = files().hostPath(files().expand(path));
    std::filesystem::create_directories(std::filesystem::path(host).parent_path());
    std::ofstream(host) << content;
}

void Student::dir(const std::string &path)
{
    std::filesystem::create_directories(files().hostPath(files().expand(path)));
}

std::optional<mc::lessons::Lesson> shippedLesson(const std::string &lang, const std::string &number)
{
    const std::string dir = MC_SOURCE_DIR "/lessons";
    for (const auto &e : mc::lessons::listLessons(dir, lang)) {
        if (e.id.rfind(number + "-", 0) == 0) {
            auto parsed = mc::lessons::loadLesson(dir, lang, e.id);
            if (parsed && parsed->problems.empty()) {
                return parsed->lesson;
            }
        }
    }
    return std::nullopt;
}

void doRight(const std::string &number, Student &w)
{
    if (number == "01") {
        w.typed("laptop", "ssh minicluster");
        w.file("laptop:~/.ssh/config", "Host mc\n    HostName minicluster\n    User bob\n");
        w.typed("laptop", "ssh mc hostname");
        w.typed("laptop", "rsync -a myproject/ mc:myproject/");
        w.file("~/myproject/train.py", "print('train')\n");
        w.typed("login1", "sinfo");
    } else if (number == "02") {
        w.typed("login1", "sbatch hello.sh");
        w.job(2, "hello", "COMPLETED");
        w.typed("login1", "squeue -u bob");
        w.file("~/hello-2.out", "Hello from cn01\n");
        w.typed("login1", "sacct -j 2");
    } else if (number == "03") {
        // salloc's shell is on cn01 (LaunchParameters=use_interactive_step), until exit.
        w.typed("login1", "salloc --time=1:00:00 --mem=2G");
        w.job(3, "interactive", "COMPLETED").set("interactive", true);
        w.typed("cn01", "hostname");
        w.typed("cn01", "srun python3 interactive_test.py");
        w.typed("login1", "hostname");
    } else if (number == "04") {
        w.job(4, "too-long", "TIMEOUT");
        w.job(5, "too-big", "OUT_OF_MEMORY");
        Json &right = w.job(6, "right-size", "COMPLETED");
        right.set("min_memory", 500);
        right.set("time_limit", 600);
        w.typed("login1", "seff 6");
    } else if (number == "05") {
        w.job(7, "logdir", "FAILED");
        w.dir("$SCRATCH/logs");
        w.job(8, "logdir", "COMPLETED");
        w.file("$SCRATCH/logs/logdir-8.out", "my log is in /scratch/bob/logs\n");
        w.job(9, "tmpdir", "COMPLETED");
        w.file("$SCRATCH/results/parts-9.tar", "tar");
        w.typed("login1", "diskusage_report");
    } else if (number == "06") {
        w.typed("login1", "module avail");
        w.typed("login1", "module load python");
        w.job(10, "venv", "COMPLETED");
        w.file("~/venv-10.out", "python 3.11\n");
    } else if (number == "07") {
        for (int t = 1; t <= 6; ++t) {
            Json &task = w.job(10 + t, "squares", "COMPLETED");
            task.set("array_job_id", 11);
            task.set("array_task_id", t);
        }
        w.file("~/squares-11_6.out", "6 squared is 36\n");
        // pipeline.sh submits the three at once, each with --dependency=afterok: on the one
        // before; once they ran, the controller reports no dependency: each was submitted
        // before the one it waited for ended, and started once it had.
        w.job(20, "prepare", "COMPLETED"); // 1200-1205-1208
        w.job(21, "compute", "COMPLETED").set("submit_time", 1201).set("start_time", 1208);
        w.job(22, "analyse", "COMPLETED").set("submit_time", 1202).set("start_time", 1218);
        w.file("~/analyse-22.out", "sum: 338350\n");
    } else if (number == "08") {
        w.file("$SCRATCH/code-snapshots/myproject/train.py", "print('train')\n");
        w.dir("$SCRATCH/logs");
        w.job(30, "train", "COMPLETED");
        w.file("$SCRATCH/results/train-30/checkpoint.json", "{\"epoch\": 5}\n");
        w.file("$SCRATCH/logs/train-30.out", "epoch 5 loss 0.1\n");
    } else if (number == "09") {
        w.typed("login1", "squeue");
        w.typed("login1", "sprio");
        w.typed("login1", "sshare");
        Json &wide = w.job(40, "wide", "PENDING");
        wide.set("num_nodes", 4);
        wide.set("start_time", 3000); // its planned start
        wide.set("end_time", 0);
        w.typed("login1", "squeue --start");
        w.job(41, "short", "RUNNING");
        Json &tooLong = w.job(42, "toolong", "PENDING");
        tooLong.set("start_time", 3600);
        tooLong.set("end_time", 0);
        w.job(43, "checkpoint", "COMPLETED").set("restarts", 1);
        w.file("~/checkpoint.txt", "30\n");
    } else if (number == "10") {
        w.typed("login1", "sinfo");
        Json &whole = w.job(50, "whole-node", "COMPLETED");
        whole.set("partition", "CPU-4");
        whole.set("num_cpus", 4);
        w.typed("login1", "sbatch -p CPU-4 --time=1-07:00:00 exclusive_job.sh");
        w.job(51, "whole-node", "CANCELLED").set("time_limit", 31 * 3600);
        Json &thirty = w.job(52, "whole-node", "COMPLETED");
        thirty.set("partition", "CPU-4");
        thirty.set("time_limit", 30 * 3600);
        Json &big = w.job(53, "too-big", "CANCELLED");
        big.set("partition", "CPU-4");
        big.set("comment", "Job killed: memory overrun (the node was restarted)");
        w.typed("login1", "sacct -o JobID,JobName,State,Comment%80");
    } else if (number == "11") {
        w.job(58, "cnn-digits", "COMPLETED");
        w.file("~/cnn_digits/cnn-digits-58.out", "epoch 5\ndone: accuracy 0.95\n");
        w.typed("login1", "seff 58");
        w.job(60, "cnn-digits", "COMPLETED");
        w.file("~/cnn_digits/cnn-digits-60.out",
            "resumed from $SCRATCH/checkpoints/cnn-digits.pt at epoch 5\ndone: accuracy 0.97\n");
        for (int t = 0; t < 4; ++t) {
            Json &task = w.job(61 + t, "cnn-sweep", "COMPLETED");
            task.set("array_job_id", 61);
            task.set("array_task_id", t);
        }
        // Submitted with --dependency=afterok: on the sweep while its tasks ran (the last
        // ends at 1648), started once they had all ended.
        w.job(70, "cnn-gather", "COMPLETED").set("submit_time", 1641).set("start_time", 1650);
        w.file("~/cnn_digits/cnn-gather-70.out", "best: lr=0.01\n");
    } else if (number == "12") {
        Json &eight = w.job(80, "mpi-pi", "COMPLETED");
        eight.set("num_tasks", 8);
        eight.set("num_nodes", 2);
        eight.set("num_cpus", 8);
        w.file("~/mpi-pi-80.out", "pi is about 3.1416 with 8 ranks\n");
        w.job(81, "mpi-pi", "COMPLETED").set("num_tasks", 1);
        w.file("~/mpi-pi-81.out", "pi is about 3.1416 with 1 ranks\n");
        Json &alloc = w.job(82, "interactive", "COMPLETED");
        alloc.set("interactive", true);
        alloc.set("num_nodes", 2);
        w.typed("cn01", "mpirun hostname"); // in salloc's shell, on the first node
    } else if (number == "13") {
        w.typed("login1",
            "apptainer exec /opt/minicluster/software/images/python-numpy.sif python3 -c "
            "'import numpy'");
        w.typed("login1", "apptainer shell /opt/minicluster/software/images/python-numpy.sif");
        w.job(90, "container", "FAILED");
        w.job(91, "container", "COMPLETED");
        w.file("$SCRATCH/container-data/summary.txt", "mean 50.50\n");
        Json &gpu = w.job(92, "gpu-container", "COMPLETED");
        gpu.set("partition", "gpu");
        gpu.set("gres", "gpu:1");
        w.file("~/gpu-container-92.out", "GPUs seen in the container: 0\n");
    } else if (number == "14") {
        auto hpcJob = [&w](std::int64_t id, const char *name) {
            Json &j = w.job(id, name, "COMPLETED");
            j.set("partition", "hpc");
            j.set("num_tasks", 2);
        };
        hpcJob(100, "same-slurm");
        w.typed("login1", "bsub < same_lsf.sh");
        hpcJob(101, "same-lsf");
        w.typed("login1", "bjobs -a");
        hpcJob(102, "same-pbs");
        w.typed("login1", "qstat -x");
        w.typed("login1", "sbatch same_pbs.sh");
    } else if (number == "15") {
        w.typed("login1", "sinfo -o \"%P %N %G\"");
        Json &gpu = w.job(110, "gpu_check", "COMPLETED");
        gpu.set("partition", "gpu");
        gpu.set("gres", "gpu:a100:1");
        // First without device.py's lines (the script's `module load` line changed), then whole.
        w.file("~/gpu/gpu_check-110.out", "CUDA_VISIBLE_DEVICES=0\n| GPU-Util |\n");
        w.file("~/gpu/gpu_check-110.out", "CUDA_VISIBLE_DEVICES=0\n| GPU-Util |\ndevice: cpu\n");
        w.typed("login1", "sacct -j 110 -o JobID,AllocTRES%60");
    }
}

} // namespace mc::lessons::test
