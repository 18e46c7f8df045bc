// SPDX-License-Identifier: GPL-3.0-or-later
// A disk that fills, for fault tests: preloaded (LD_PRELOAD) into a Cellforge program, it
// makes writes to regular files under CELLFORGE_FAULT_DISK_DIR fail with ENOSPC ("No space
// left on device") once CELLFORGE_FAULT_DISK_BYTES bytes have been written there, as a full
// disk does: the write that crosses the limit is cut short, later ones fail. It sits under
// every writer in the process (C++ streams, HDF5, FFmpeg, the checkpoint code), which is
// why it works at the C library's write functions and not inside Cellforge.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static atomic_llong used;

// Bytes still allowed for a write to `fd`; LLONG_MAX when the fd is not on the full disk.
static long long room(int fd) {
    const char* dir = getenv("CELLFORGE_FAULT_DISK_DIR");
    const char* limit = getenv("CELLFORGE_FAULT_DISK_BYTES");
    if (dir == NULL || limit == NULL) return LLONG_MAX;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return LLONG_MAX;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return LLONG_MAX;
    path[n] = '\0';
    if (strncmp(path, dir, strlen(dir)) != 0) return LLONG_MAX;
    const long long left = atoll(limit) - atomic_load(&used);
    return left > 0 ? left : 0;
}

// How much of `want` bytes may be written; -1 with errno ENOSPC when none.
static ssize_t allowance(int fd, size_t want) {
    const long long left = room(fd);
    if (left == LLONG_MAX) return (ssize_t)want;
    if (left == 0 && want > 0) {
        errno = ENOSPC;
        return -1;
    }
    return (ssize_t)((long long)want < left ? (long long)want : left);
}

static void account(int fd, ssize_t written) {
    if (written > 0 && room(fd) != LLONG_MAX) atomic_fetch_add(&used, written);
}

ssize_t write(int fd, const void* buf, size_t count) {
    static ssize_t (*real)(int, const void*, size_t);
    if (!real) real = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
    const ssize_t allowed = allowance(fd, count);
    if (allowed < 0) return -1;
    const ssize_t r = real(fd, buf, (size_t)allowed);
    account(fd, r);
    return r;
}

ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
    static ssize_t (*real)(int, const void*, size_t, off_t);
    if (!real) real = (ssize_t(*)(int, const void*, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    const ssize_t allowed = allowance(fd, count);
    if (allowed < 0) return -1;
    const ssize_t r = real(fd, buf, (size_t)allowed, offset);
    account(fd, r);
    return r;
}

ssize_t pwrite64(int fd, const void* buf, size_t count, off_t offset) {
    return pwrite(fd, buf, count, offset);
}

ssize_t writev(int fd, const struct iovec* iov, int iovcnt) {
    static ssize_t (*real)(int, const struct iovec*, int);
    if (!real) real = (ssize_t(*)(int, const struct iovec*, int))dlsym(RTLD_NEXT, "writev");
    size_t total = 0;
    for (int i = 0; i < iovcnt; ++i)
        total += iov[i].iov_len;
    const ssize_t allowed = allowance(fd, total);
    if (allowed < 0) return -1;
    if ((size_t)allowed < total) {  // cut short: write what fits of the first buffers
        ssize_t done = 0;
        for (int i = 0; i < iovcnt && done < allowed; ++i) {
            const size_t part = iov[i].iov_len < (size_t)(allowed - done)
                                    ? iov[i].iov_len
                                    : (size_t)(allowed - done);
            const ssize_t r = write(fd, iov[i].iov_base, part);
            if (r < 0) return done > 0 ? done : -1;
            done += r;
            if ((size_t)r < part) break;
        }
        return done;
    }
    const ssize_t r = real(fd, iov, iovcnt);
    account(fd, r);
    return r;
}
