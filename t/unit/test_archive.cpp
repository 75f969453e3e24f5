// Unit tests for src/cli/archive.cpp: what TarWriter writes, TarReader reads back with the same
// SHA-256s (a long name through the prefix field included), and any damaged
// byte, short archive or trailing data is refused.
#include "cli/archive.h"

#include <cppunit/extensions/HelperMacros.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "base/digest.h"

namespace {

// An anonymous file holding bytes, read from its start.
int file_of(const std::string &bytes) {
    FILE *f = std::tmpfile();
    int fd = dup(fileno(f));
    std::fclose(f);
    if (write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
        throw std::runtime_error("write failed");
    lseek(fd, 0, SEEK_SET);
    return fd;
}

std::string contents(int fd) {
    std::string out;
    lseek(fd, 0, SEEK_SET);
    char buffer[4096];
    for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;)
        out.append(buffer, static_cast<size_t>(n));
    return out;
}

const std::string k_long_name = "files/" + std::string(60, 'd') + "/" + std::string(70, 'f');

// An archive of two members: "a" with data, and a long name whose data comes from a file.
std::string sample() {
    int out = file_of("");
    cms::archive::TarWriter tar(out);
    tar.add_bytes("a", "hello", 0);
    int src = file_of(std::string(1000, 'x'));
    tar.add_file(k_long_name, src, 1000, 0);
    close(src);
    tar.finish();
    std::string bytes = contents(out);
    close(out);
    return bytes;
}

// Reads every member of bytes, returning "name sha256" lines.
std::string read_all(const std::string &bytes) {
    int fd = file_of(bytes);
    cms::archive::TarReader tar(fd);
    cms::archive::Member m;
    std::string out;
    try {
        while (tar.next(m))
            out += m.name + " " + tar.drain(-1) + "\n";
    } catch (...) {
        close(fd);
        throw;
    }
    close(fd);
    return out;
}

} // namespace

class ArchiveTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(ArchiveTest);
    CPPUNIT_TEST(members_read_back_with_their_sha256);
    CPPUNIT_TEST(the_archive_is_whole_blocks_and_ends_with_two_zero_blocks);
    CPPUNIT_TEST(a_flipped_byte_in_a_header_or_padding_is_refused);
    CPPUNIT_TEST(a_truncated_archive_is_refused);
    CPPUNIT_TEST(data_after_the_end_is_refused);
    CPPUNIT_TEST(a_record_of_zeros_after_the_end_is_read);
    CPPUNIT_TEST(a_file_shorter_than_announced_is_refused);
    CPPUNIT_TEST(safe_names_stay_below_their_directory);
    CPPUNIT_TEST_SUITE_END();

  public:
    void members_read_back_with_their_sha256() {
        CPPUNIT_ASSERT_EQUAL("a " + cms::digest::sha256_hex("hello") + "\n" + k_long_name + " " +
                                 cms::digest::sha256_hex(std::string(1000, 'x')) + "\n",
                             read_all(sample()));
    }

    void the_archive_is_whole_blocks_and_ends_with_two_zero_blocks() {
        std::string bytes = sample();
        CPPUNIT_ASSERT_EQUAL(size_t(0), bytes.size() % 512);
        CPPUNIT_ASSERT_EQUAL(std::string(1024, '\0'), bytes.substr(bytes.size() - 1024));
    }

    void a_flipped_byte_in_a_header_or_padding_is_refused() {
        std::string header = sample();
        header[3] ^= 1;
        CPPUNIT_ASSERT_THROW(read_all(header), std::runtime_error);
        std::string padding = sample();
        padding[512 + 100] ^= 1; // after the 5 bytes of "a"
        CPPUNIT_ASSERT_THROW(read_all(padding), std::runtime_error);
    }

    void a_truncated_archive_is_refused() {
        std::string bytes = sample();
        CPPUNIT_ASSERT_THROW(read_all(bytes.substr(0, bytes.size() - 512)), std::runtime_error);
        CPPUNIT_ASSERT_THROW(read_all(bytes.substr(0, 700)), std::runtime_error);
    }

    void data_after_the_end_is_refused() {
        CPPUNIT_ASSERT_THROW(read_all(sample() + "x"), std::runtime_error);
        CPPUNIT_ASSERT_THROW(read_all(sample() + std::string(600, '\0') + "x"),
                             std::runtime_error);
        CPPUNIT_ASSERT_THROW(read_all(sample() + std::string(20 * 512, '\0')), std::runtime_error);
    }

    // GNU tar and Python's tarfile fill the last record of 20 blocks with zeros.
    void a_record_of_zeros_after_the_end_is_read() {
        CPPUNIT_ASSERT_EQUAL(read_all(sample()), read_all(sample() + std::string(9 * 512, '\0')));
    }

    void a_file_shorter_than_announced_is_refused() {
        int out = file_of("");
        cms::archive::TarWriter tar(out);
        int src = file_of("short");
        CPPUNIT_ASSERT_THROW(tar.add_file("f", src, 10, 0), std::runtime_error);
        close(src);
        close(out);
    }

    void safe_names_stay_below_their_directory() {
        CPPUNIT_ASSERT(cms::archive::safe_name("files/2026/01/01/a.png"));
        CPPUNIT_ASSERT(cms::archive::safe_name("db.sql"));
        CPPUNIT_ASSERT(cms::archive::safe_name("a..b/c"));
        CPPUNIT_ASSERT(!cms::archive::safe_name(""));
        CPPUNIT_ASSERT(!cms::archive::safe_name("/etc/passwd"));
        CPPUNIT_ASSERT(!cms::archive::safe_name("files/../../etc/passwd"));
        CPPUNIT_ASSERT(!cms::archive::safe_name("files/./a"));
        CPPUNIT_ASSERT(!cms::archive::safe_name("files//a"));
        CPPUNIT_ASSERT(!cms::archive::safe_name("files/"));
        CPPUNIT_ASSERT(!cms::archive::safe_name(".."));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ArchiveTest);
