/* An LD_PRELOAD shim for the tests of a restore's file swap (t/0630): it counts the renames
 * (rename, renameat, renameat2) whose source or target path (a name relative to a directory
 * descriptor taken with the directory's path) contains RENAME_FAULT_MATCH, and
 *   RENAME_FAULT_AT=N[,M...]  makes the Nth (Mth...) of them fail with EIO, doing nothing;
 *   RENAME_FAULT_UPLOAD=N:PATH  after the Nth has succeeded, writes the file PATH (its missing
 *                               directories made), as an upload landing at that moment would;
 *   RENAME_FAULT_LOG=FILE       appends "N FROM TO RESULT" for each to FILE.
 * Built by the test that uses it: cc -shared -fPIC -o rename-fault.so rename-fault.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int counted;

static int matches(const char *from, const char *to) {
    const char *match = getenv("RENAME_FAULT_MATCH");
    if (match == NULL || *match == '\0')
        return 1;
    return (from != NULL && strstr(from, match) != NULL) || (to != NULL && strstr(to, match) != NULL);
}

/* Whether n is in the comma-separated list of RENAME_FAULT_AT. */
static int faulted(int n) {
    const char *list = getenv("RENAME_FAULT_AT");
    while (list != NULL && *list != '\0') {
        char *end;
        long at = strtol(list, &end, 10);
        if (end == list)
            return 0;
        if (at == n)
            return 1;
        list = *end == ',' ? end + 1 : end;
    }
    return 0;
}

static void make_parents(const char *path) {
    char buffer[4096];
    snprintf(buffer, sizeof buffer, "%s", path);
    for (char *slash = strchr(buffer + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(buffer, 0755);
        *slash = '/';
    }
}

static void upload_after(int n) {
    const char *spec = getenv("RENAME_FAULT_UPLOAD");
    char *colon;
    if (spec == NULL || strtol(spec, &colon, 10) != n || *colon != ':')
        return;
    make_parents(colon + 1);
    int fd = open(colon + 1, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        ssize_t ignored = write(fd, "uploaded mid-swap\n", 18);
        (void)ignored;
        close(fd);
    }
}

static void note(int n, const char *from, const char *to, int result) {
    const char *log = getenv("RENAME_FAULT_LOG");
    if (log == NULL)
        return;
    FILE *f = fopen(log, "a");
    if (f == NULL)
        return;
    fprintf(f, "%d %s %s %s\n", n, from, to, result == 0 ? "ok" : strerror(errno));
    fclose(f);
}

/* The path of name below the directory open at dir, in out (size 4096). */
static const char *full_path(int dir, const char *name, char *out) {
    char link[64], target[4096];
    ssize_t n;
    if (dir == AT_FDCWD || name[0] == '/')
        return name;
    snprintf(link, sizeof link, "/proc/self/fd/%d", dir);
    n = readlink(link, target, sizeof target - 1);
    if (n < 0)
        return name;
    target[n] = '\0';
    snprintf(out, 4096, "%s/%s", target, name);
    return out;
}

/* Runs the real rename (call), unless this one is to fail. */
#define WRAP(call)                                                                                 \
    if (!matches(from, to))                                                                        \
        return call;                                                                               \
    int n = ++counted;                                                                             \
    int result;                                                                                    \
    if (faulted(n)) {                                                                              \
        errno = EIO;                                                                               \
        result = -1;                                                                               \
    } else {                                                                                       \
        result = call;                                                                             \
    }                                                                                              \
    int saved = errno;                                                                             \
    note(n, from, to, result);                                                                     \
    if (result == 0)                                                                               \
        upload_after(n);                                                                           \
    errno = saved;                                                                                 \
    return result;

int rename(const char *from, const char *to) {
    static int (*real)(const char *, const char *);
    if (real == NULL)
        real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    WRAP(real(from, to))
}

int renameat(int from_dir, const char *from_name, int to_dir, const char *to_name) {
    static int (*real)(int, const char *, int, const char *);
    if (real == NULL)
        real = (int (*)(int, const char *, int, const char *))dlsym(RTLD_NEXT, "renameat");
    char from_path[4096], to_path[4096];
    const char *from = full_path(from_dir, from_name, from_path);
    const char *to = full_path(to_dir, to_name, to_path);
    WRAP(real(from_dir, from_name, to_dir, to_name))
}

int renameat2(int from_dir, const char *from_name, int to_dir, const char *to_name,
              unsigned int flags) {
    static int (*real)(int, const char *, int, const char *, unsigned int);
    if (real == NULL)
        real = (int (*)(int, const char *, int, const char *, unsigned int))dlsym(RTLD_NEXT,
                                                                                 "renameat2");
    char from_path[4096], to_path[4096];
    const char *from = full_path(from_dir, from_name, from_path);
    const char *to = full_path(to_dir, to_name, to_path);
    WRAP(real(from_dir, from_name, to_dir, to_name, flags))
}
