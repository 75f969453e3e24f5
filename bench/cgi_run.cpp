// bench/run's CGI row. `cgi-run APP CONF PATH_INFO RUNS` runs APP as a CGI program RUNS times in
// a row, each a GET of PATH_INFO with the CGI variables a web server would set (config CONF), and
// prints the line of report.lua, `bench-result RPS P50_MS P99_MS ERRORS REQUESTS`, then `cgi-cpu
// SECONDS`, the CPU time the runs used (user and system, of the children). An error is an exit
// status other than 0 or an answer whose Status is not 200. `cgi-run --floor RUNS` starts
// /bin/true the same way and prints `spawn-ms P50_MS`: the floor that this machine's process
// start sets under the row.
//
// posix_spawn (a vfork), as a web server's small CGI daemon forks: the cost of copying a large
// harness process is not the program's.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Run {
    double ms = 0;
    bool ok = false;
};

// One start of argv with env; its standard output is read to the end. ok when it exits 0 and its
// output begins with expect (empty: any output).
Run run_once(char *const argv[], char *const env[], const std::string &expect) {
    Run run;
    int out[2];
    if (pipe(out) != 0)
        return run;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addclose(&actions, out[1]);
    auto start = Clock::now();
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv, env);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    std::string answer;
    char buffer[4096];
    ssize_t n;
    while (rc == 0 && (n = read(out[0], buffer, sizeof buffer)) > 0)
        answer.append(buffer, static_cast<size_t>(n));
    close(out[0]);
    int status = 0;
    if (rc != 0 || waitpid(pid, &status, 0) != pid)
        return run;
    run.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && answer.rfind(expect, 0) == 0;
    return run;
}

double percentile(std::vector<double> ms, double p) {
    std::sort(ms.begin(), ms.end());
    return ms[static_cast<size_t>(p * static_cast<double>(ms.size() - 1) + 0.5)];
}

} // namespace

int main(int argc, char **argv) {
    bool floor = argc == 3 && std::string(argv[1]) == "--floor";
    long runs = std::strtol(floor ? argv[2] : argc == 5 ? argv[4] : "0", nullptr, 10);
    if (runs <= 0) {
        std::fputs("usage: cgi-run APP CONF PATH_INFO RUNS | cgi-run --floor RUNS\n", stderr);
        return 2;
    }
    std::vector<std::string> vars = {"GATEWAY_INTERFACE=CGI/1.1",
                                     "SERVER_PROTOCOL=HTTP/1.1",
                                     "REMOTE_ADDR=127.0.0.1",
                                     "REQUEST_METHOD=GET",
                                     "SCRIPT_NAME=",
                                     "QUERY_STRING="};
    if (!floor)
        vars.push_back(std::string("PATH_INFO=") + argv[3]);
    if (const char *path = std::getenv("PATH"))
        vars.push_back(std::string("PATH=") + path);
    std::vector<char *> env;
    for (std::string &var : vars)
        env.push_back(var.data());
    env.push_back(nullptr);

    std::vector<double> ms;
    if (floor) {
        std::string app = "/bin/true";
        char *floor_argv[] = {app.data(), nullptr};
        for (long i = 0; i < runs; ++i)
            ms.push_back(run_once(floor_argv, env.data(), "").ms);
        std::printf("spawn-ms %.3f\n", percentile(ms, 0.5));
        return 0;
    }
    std::string app = argv[1], flag = "-c", conf = argv[2];
    char *app_argv[] = {app.data(), flag.data(), conf.data(), nullptr};
    long errors = 0;
    auto start = Clock::now();
    for (long i = 0; i < runs; ++i) {
        Run run = run_once(app_argv, env.data(), "Status: 200");
        ms.push_back(run.ms);
        errors += run.ok ? 0 : 1;
    }
    double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    std::printf("bench-result %.1f %.3f %.3f %ld %ld\n", static_cast<double>(runs) / elapsed,
                percentile(ms, 0.5), percentile(ms, 0.99), errors, runs);
    std::printf("cgi-cpu %.3f\n",
                static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                    static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);
    return 0;
}
