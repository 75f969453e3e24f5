// The backup archive's container: a POSIX ustar file written and read member by member, with the
// SHA-256 of each member's bytes computed as they pass. Knows nothing of what the members mean.
#pragma once

#include <cstdint>
#include <string>

namespace cms::archive {

// Whether name is a relative path without empty, . or .. parts: all a member's name (and a
// lin_file path) may be, so that nothing is read or written outside the directory meant.
bool safe_name(const std::string &name);

// Opens dir/name for reading when name is a safe_name and no part of it below dir is a symbolic
// link, and it is a regular file; -1 otherwise. A link planted in the file store would otherwise
// copy a file of whoever runs the backup (root, often) into an archive and back out as an upload.
int open_below(const std::string &dir, const std::string &name);
// The same below the directory open at dir.
int open_below(int dir, const std::string &name);

// Writes members to an open descriptor (not owned), a name too long for ustar in a pax extended
// header before its member. Every failure throws std::runtime_error.
class TarWriter {
  public:
    explicit TarWriter(int fd) : fd_(fd) {}

    // Adds member name with the size bytes read from descriptor src; returns their SHA-256.
    // Throws when src gives more or fewer bytes (a file that changed while it was archived).
    std::string add_file(const std::string &name, int src, uint64_t size, int64_t mtime);
    // Adds member name holding data; returns its SHA-256.
    std::string add_bytes(const std::string &name, const std::string &data, int64_t mtime);
    // Writes the end of the archive (two zero blocks).
    void finish();

  private:
    void header(const std::string &name, uint64_t size, int64_t mtime, char type = '0');
    void write_all(const void *data, size_t size);
    void pad(uint64_t size);

    int fd_;
};

// One member's header as read.
struct Member {
    std::string name;
    uint64_t size = 0;
    int64_t mtime = 0;
    bool regular = true; // a file; false for a directory or anything else
};

// Reads members from an open descriptor (not owned), refusing what is not a well-formed ustar
// archive as TarWriter writes it: a bad header checksum, padding that is not zero, a short read
// (a truncated archive), a missing end, or anything after it but the zeros of one tar record. A
// pax extended header gives the next member's name; one larger than 16 KiB, or holding anything
// but one path, is refused. The name is given as it is: safe_name is the caller's check.
class TarReader {
  public:
    explicit TarReader(int fd) : fd_(fd) {}

    // The next member's header, or false at the end of the archive.
    bool next(Member &member);
    // Up to size bytes of the current member's data; 0 when it is all read.
    size_t read(char *buffer, size_t size);
    // Reads what is left of the current member, sending it to descriptor out when out >= 0;
    // returns the SHA-256 of the member's whole data (only right when none was read before).
    std::string drain(int out);

  private:
    void read_exactly(char *buffer, size_t size);

    int fd_;
    uint64_t left_ = 0;    // data bytes of the current member not read yet
    uint64_t padding_ = 0; // zero bytes after them, to the next block
};

} // namespace cms::archive
