// POSIX ustar (IEEE Std 1003.1-1988) writing and reading, by blocks of 512 bytes, with SHA-256
// over each member's data. Names longer than 100 bytes use the 155-byte prefix field; a name
// that does not fit there either (lin_file.path holds 500 characters) goes in a pax extended
// header (POSIX.1-2001, type 'x') before the member, holding one record, "path".
#include "cli/archive.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "base/digest.h"

namespace cms::archive {

namespace {

constexpr size_t k_block = 512;
constexpr size_t k_record = 20 * k_block; // what tar tools pad a whole archive to
constexpr size_t k_buffer = 1 << 16;

// Field offsets and sizes of a ustar header.
constexpr size_t k_name = 0, k_name_size = 100;
constexpr size_t k_mode = 100, k_uid = 108, k_gid = 116, k_size = 124, k_mtime = 136;
constexpr size_t k_checksum = 148, k_type = 156, k_magic = 257, k_version = 263;
constexpr size_t k_prefix = 345, k_prefix_size = 155;

// The data of a pax extended header that the reader takes: a path of lin_file's 500 characters
// (2,000 bytes of UTF-8) and its record fit many times over.
constexpr uint64_t k_pax_max = 16 * 1024;
constexpr const char *k_pax_name = "././@PaxHeader"; // the header's own name, as Python's tarfile

void octal(char *field, size_t width, uint64_t value) {
    // width - 1 digits and a NUL; a value that does not fit is a bug of the caller.
    for (size_t i = width - 1; i-- > 0; value >>= 3)
        field[i] = static_cast<char>('0' + (value & 7));
    field[width - 1] = '\0';
    if (value != 0)
        throw std::runtime_error("a tar header field overflows");
}

uint64_t parse_octal(const char *field, size_t width) {
    uint64_t value = 0;
    size_t i = 0;
    while (i < width && field[i] == ' ')
        ++i;
    for (; i < width && field[i] >= '0' && field[i] <= '7'; ++i)
        value = (value << 3) | static_cast<uint64_t>(field[i] - '0');
    if (i < width && field[i] != '\0' && field[i] != ' ')
        throw std::runtime_error("the archive is damaged: a tar header holds a bad number");
    return value;
}

unsigned checksum(const char *block) {
    unsigned sum = 0;
    for (size_t i = 0; i < k_block; ++i)
        sum += (i >= k_checksum && i < k_checksum + 8) ? ' ' : static_cast<unsigned char>(block[i]);
    return sum;
}

std::string field_text(const char *field, size_t width) {
    return std::string(field, strnlen(field, width));
}

} // namespace

bool safe_name(const std::string &name) {
    if (name.empty() || name[0] == '/' || name.back() == '/')
        return false;
    for (size_t begin = 0; begin <= name.size();) {
        size_t end = name.find('/', begin);
        if (end == std::string::npos)
            end = name.size();
        std::string part = name.substr(begin, end - begin);
        if (part.empty() || part == "." || part == "..")
            return false;
        begin = end + 1;
    }
    return true;
}

int open_below(const std::string &dir, const std::string &name) {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int file = open_below(fd, name);
    ::close(fd);
    return file;
}

int open_below(int dir, const std::string &name) {
    if (!safe_name(name))
        return -1;
    int fd = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (size_t begin = 0; fd >= 0;) {
        size_t end = name.find('/', begin);
        bool last = end == std::string::npos;
        std::string part = name.substr(begin, last ? std::string::npos : end - begin);
        int next = ::openat(fd, part.c_str(),
                            O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY));
        ::close(fd);
        fd = next;
        if (last)
            break;
        begin = end + 1;
    }
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        ::close(fd);
        return -1;
    }
    return fd;
}

void TarWriter::write_all(const void *data, size_t size) {
    const char *p = static_cast<const char *>(data);
    while (size > 0) {
        ssize_t n = ::write(fd_, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error(std::string("cannot write the archive: ") +
                                     std::strerror(errno));
        p += n;
        size -= static_cast<size_t>(n);
    }
}

void TarWriter::pad(uint64_t size) {
    static const char zeros[k_block] = {};
    if (size % k_block != 0)
        write_all(zeros, k_block - size % k_block);
}

std::string pax_record(const std::string &key, const std::string &value) {
    // "LENGTH key=value\n", LENGTH counting its own digits.
    std::string body = " " + key + "=" + value + "\n";
    size_t length = body.size() + 1;
    while (std::to_string(length).size() + body.size() != length)
        ++length;
    return std::to_string(length) + body;
}

void TarWriter::header(const std::string &name, uint64_t size, int64_t mtime, char type) {
    char block[k_block] = {};
    std::string prefix, rest = name;
    if (name.size() > k_name_size) {
        // Split at a slash: the prefix holds the directories, the name field the rest.
        size_t slash = name.rfind('/', k_prefix_size);
        if (slash == std::string::npos || name.size() - slash - 1 > k_name_size) {
            // Too long for ustar: the name in a pax header; a reader without pax sees a prefix.
            std::string record = pax_record("path", name);
            header(k_pax_name, record.size(), mtime, 'x');
            write_all(record.data(), record.size());
            pad(record.size());
            slash = std::string::npos;
        }
        prefix = slash == std::string::npos ? "" : name.substr(0, slash);
        rest = slash == std::string::npos ? name.substr(0, k_name_size) : name.substr(slash + 1);
    }
    std::memcpy(block + k_name, rest.data(), rest.size());
    std::memcpy(block + k_prefix, prefix.data(), prefix.size());
    octal(block + k_mode, 8, 0600);
    octal(block + k_uid, 8, 0);
    octal(block + k_gid, 8, 0);
    octal(block + k_size, 12, size);
    octal(block + k_mtime, 12, static_cast<uint64_t>(std::max<int64_t>(mtime, 0)));
    block[k_type] = type;
    std::memcpy(block + k_magic, "ustar", 6);
    std::memcpy(block + k_version, "00", 2);
    octal(block + k_checksum, 7, checksum(block));
    block[k_checksum + 7] = ' ';
    write_all(block, k_block);
}

std::string TarWriter::add_file(const std::string &name, int src, uint64_t size, int64_t mtime) {
    header(name, size, mtime);
    digest::Sha256 sha;
    std::vector<char> buffer(k_buffer);
    uint64_t left = size;
    while (left > 0) {
        ssize_t n = ::read(src, buffer.data(), std::min<uint64_t>(left, buffer.size()));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw std::runtime_error("cannot read '" + name + "': " + std::strerror(errno));
        if (n == 0)
            throw std::runtime_error("'" + name + "' became shorter while it was archived");
        sha.update(buffer.data(), static_cast<size_t>(n));
        write_all(buffer.data(), static_cast<size_t>(n));
        left -= static_cast<uint64_t>(n);
    }
    char extra;
    if (::read(src, &extra, 1) > 0)
        throw std::runtime_error("'" + name + "' became longer while it was archived");
    pad(size);
    return sha.hex();
}

std::string TarWriter::add_bytes(const std::string &name, const std::string &data, int64_t mtime) {
    header(name, data.size(), mtime);
    write_all(data.data(), data.size());
    pad(data.size());
    return digest::sha256_hex(data);
}

void TarWriter::finish() {
    static const char zeros[2 * k_block] = {};
    write_all(zeros, sizeof zeros);
}

void TarReader::read_exactly(char *buffer, size_t size) {
    while (size > 0) {
        ssize_t n = ::read(fd_, buffer, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw std::runtime_error(std::string("cannot read the archive: ") +
                                     std::strerror(errno));
        if (n == 0)
            throw std::runtime_error("the archive is truncated");
        buffer += n;
        size -= static_cast<size_t>(n);
    }
}

// The path of a pax extended header's data: records "LENGTH key=value\n", each LENGTH bytes,
// and only "path", once. Refuses anything else (a "size" or "linkpath" ignored would misread
// what follows).
std::string pax_path(const std::string &data) {
    const std::string damaged = "the archive is damaged: a pax header ";
    std::string path;
    bool found = false;
    for (size_t at = 0; at < data.size();) {
        size_t space = data.find(' ', at);
        if (space == std::string::npos || space == at || space - at > 5 ||
            !std::all_of(data.begin() + static_cast<std::ptrdiff_t>(at),
                         data.begin() + static_cast<std::ptrdiff_t>(space),
                         [](char c) { return c >= '0' && c <= '9'; }))
            throw std::runtime_error(damaged + "record has no length");
        size_t length = std::stoul(data.substr(at, space - at));
        if (length < space - at + 4 || length > data.size() - at || data[at + length - 1] != '\n')
            throw std::runtime_error(damaged + "record has a wrong length");
        std::string record = data.substr(space + 1, at + length - 1 - (space + 1));
        size_t eq = record.find('=');
        if (eq == std::string::npos || record.substr(0, eq) != "path")
            throw std::runtime_error(damaged + "holds a record other than one path");
        if (found || eq + 1 == record.size() || record.find('\0') != std::string::npos)
            throw std::runtime_error(damaged + "holds a second path, or an empty one");
        path = record.substr(eq + 1);
        found = true;
        at += length;
    }
    if (!found)
        throw std::runtime_error(damaged + "holds no path");
    return path;
}

bool TarReader::next(Member &member) {
    while (left_ > 0 || padding_ > 0)
        drain(-1);
    char block[k_block];
    read_exactly(block, k_block);
    std::string long_name;
    if (block[k_type] == 'x' && std::memcmp(block + k_magic, "ustar", 5) == 0 &&
        parse_octal(block + k_checksum, 8) == checksum(block)) {
        // A pax extended header: the name of the member that follows it.
        uint64_t size = parse_octal(block + k_size, 12);
        if (size > k_pax_max)
            throw std::runtime_error("the archive is damaged: a pax header is too large");
        std::string data(static_cast<size_t>(size), '\0');
        left_ = size;
        padding_ = size % k_block == 0 ? 0 : k_block - size % k_block;
        for (size_t got = 0; got < data.size();)
            got += read(data.data() + got, data.size() - got);
        read(block, 0);
        long_name = pax_path(data);
        read_exactly(block, k_block);
        if (block[k_type] == 'x' || std::all_of(block, block + k_block, [](char c) { return c == '\0'; }))
            throw std::runtime_error("the archive is damaged: a pax header is not followed by its "
                                     "member");
    }
    if (std::all_of(block, block + k_block, [](char c) { return c == '\0'; })) {
        // The end: a second zero block must follow, then nothing but the zeros that fill a
        // tar record (GNU tar and Python's tarfile pad to 20 blocks), never more than a record.
        read_exactly(block, k_block);
        bool zeros = std::all_of(block, block + k_block, [](char c) { return c == '\0'; });
        size_t tail = 0;
        ssize_t n;
        while (zeros && (n = ::read(fd_, block, k_block)) != 0) {
            if (n < 0 && errno == EINTR)
                continue;
            tail += static_cast<size_t>(n);
            zeros = n > 0 && tail < k_record &&
                    std::all_of(block, block + n, [](char c) { return c == '\0'; });
        }
        if (!zeros)
            throw std::runtime_error("the archive is damaged: data after its end marker");
        return false;
    }
    if (std::memcmp(block + k_magic, "ustar", 5) != 0)
        throw std::runtime_error("the archive is damaged: a member header is not ustar");
    if (parse_octal(block + k_checksum, 8) != checksum(block))
        throw std::runtime_error("the archive is damaged: a member header's checksum is wrong");
    std::string prefix = field_text(block + k_prefix, k_prefix_size);
    std::string name = field_text(block + k_name, k_name_size);
    member.name = !long_name.empty() ? long_name : prefix.empty() ? name : prefix + "/" + name;
    member.size = parse_octal(block + k_size, 12);
    member.mtime = static_cast<int64_t>(parse_octal(block + k_mtime, 12));
    member.regular = block[k_type] == '0' || block[k_type] == '\0';
    left_ = member.size;
    padding_ = member.size % k_block == 0 ? 0 : k_block - member.size % k_block;
    return true;
}

size_t TarReader::read(char *buffer, size_t size) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(left_, size));
    if (n == 0) {
        if (padding_ > 0) {
            // Zeros, as written: so that no byte of an archive can change unnoticed.
            char pad[k_block];
            read_exactly(pad, static_cast<size_t>(padding_));
            if (!std::all_of(pad, pad + padding_, [](char c) { return c == '\0'; }))
                throw std::runtime_error("the archive is damaged: a member's padding is not zero");
            padding_ = 0;
        }
        return 0;
    }
    read_exactly(buffer, n);
    left_ -= n;
    return n;
}

std::string TarReader::drain(int out) {
    digest::Sha256 sha;
    std::vector<char> buffer(k_buffer);
    while (size_t n = read(buffer.data(), buffer.size())) {
        sha.update(buffer.data(), n);
        for (size_t done = 0; out >= 0 && done < n;) {
            ssize_t w = ::write(out, buffer.data() + done, n - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                throw std::runtime_error(std::string("cannot write a restored file: ") +
                                         std::strerror(errno));
            done += static_cast<size_t>(w);
        }
    }
    return sha.hex();
}

} // namespace cms::archive
