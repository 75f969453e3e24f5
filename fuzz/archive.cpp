// Fuzz target: an archive given to --restore, through TarReader member by member as verify()
// reads it (pax headers included); an archive it reads whole is written again by TarWriter and
// must read back to the same names and SHA-256s.
#include "cli/archive.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using Members = std::vector<std::pair<std::string, std::string>>; // name, SHA-256

// An anonymous file holding size bytes of data, read from its start; -1 on failure.
int file_of(const void *data, size_t size) {
    int fd = memfd_create("archive", MFD_CLOEXEC);
    if (fd >= 0 && (write(fd, data, size) != static_cast<ssize_t>(size) || lseek(fd, 0, SEEK_SET) != 0)) {
        close(fd);
        return -1;
    }
    return fd;
}

// The members of the archive in fd; throws std::runtime_error where TarReader refuses it.
Members read_members(int fd) {
    cms::archive::TarReader tar(fd);
    cms::archive::Member member;
    Members out;
    while (tar.next(member))
        out.emplace_back(member.name, tar.drain(-1));
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int fd = file_of(data, size);
    if (fd < 0)
        return 0;
    Members members;
    try {
        members = read_members(fd);
    } catch (const std::runtime_error &) {
        close(fd);
        return 0;
    }
    close(fd);
    // The data again, member by member: what TarWriter writes of it reads back the same.
    fd = file_of(data, size);
    int out = memfd_create("rewritten", MFD_CLOEXEC);
    if (fd < 0 || out < 0)
        std::abort();
    {
        cms::archive::TarReader tar(fd);
        cms::archive::TarWriter writer(out);
        cms::archive::Member member;
        while (tar.next(member)) {
            std::string bytes(static_cast<size_t>(member.size), '\0');
            for (size_t got = 0; got < bytes.size();)
                got += tar.read(bytes.data() + got, bytes.size() - got);
            writer.add_bytes(member.name, bytes, 0);
        }
        writer.finish();
    }
    close(fd);
    if (lseek(out, 0, SEEK_SET) != 0 || read_members(out) != members)
        std::abort();
    close(out);
    return 0;
}
