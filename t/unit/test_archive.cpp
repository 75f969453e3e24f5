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

// One member as a tar program writes it: a ustar header of type type for name (at most 100 bytes)
// announcing data, then data padded to whole blocks. For archives TarWriter would not write.
std::string raw_member(const std::string &name, char type, const std::string &data) {
    std::string header(512, '\0');
    header.replace(0, name.size(), name);
    auto octal = [&header](size_t at, size_t width, unsigned long long value) {
        char digits[32];
        std::snprintf(digits, sizeof digits, "%0*llo", static_cast<int>(width - 1), value);
        header.replace(at, width - 1, digits);
    };
    octal(100, 8, 0600);
    octal(108, 8, 0);
    octal(116, 8, 0);
    octal(124, 12, data.size());
    octal(136, 12, 0);
    header[156] = type;
    header.replace(257, 8, std::string("ustar\0" "00", 8));
    header.replace(148, 8, "        ");
    unsigned sum = 0;
    for (unsigned char c : header)
        sum += c;
    octal(148, 7, sum);
    std::string padded = data;
    padded.resize((data.size() + 511) / 512 * 512, '\0');
    return header + padded;
}

const std::string k_end(1024, '\0');

// A pax extended header holding records, then member "short" holding "x", then the end.
std::string with_pax(const std::string &records) {
    return raw_member("././@PaxHeader", 'x', records) + raw_member("short", '0', "x") + k_end;
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
    CPPUNIT_TEST(names_too_long_for_ustar_read_back_through_pax);
    CPPUNIT_TEST(a_pax_header_from_another_tar_program_is_read);
    CPPUNIT_TEST(a_pax_name_comes_out_as_it_is_for_safe_name_to_judge);
    CPPUNIT_TEST(a_pax_header_with_anything_but_one_path_is_refused);
    CPPUNIT_TEST(a_pax_header_larger_than_16_kib_is_refused);
    CPPUNIT_TEST(a_pax_header_without_its_member_is_refused);
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

    // lin_file.path holds 500 characters: 2,000 bytes of UTF-8 at most.
    void names_too_long_for_ustar_read_back_through_pax() {
        std::string deep = "files";
        while (deep.size() < 2000)
            deep += "/d\xc3\xa9";
        const std::string names[] = {
            deep,                                                      // many short parts
            "files/2026/01/01/" + std::string(200, 'f') + ".png",      // a last part over 100
            "files/" + std::string(150, 'p') + "/" + std::string(99, 'f'), // no slash to split at
        };
        int out = file_of("");
        cms::archive::TarWriter tar(out);
        std::string expected;
        for (const std::string &name : names) {
            tar.add_bytes(name, name, 0);
            expected += name + " " + cms::digest::sha256_hex(name) + "\n";
        }
        tar.finish();
        std::string bytes = contents(out);
        close(out);
        CPPUNIT_ASSERT_EQUAL(size_t(0), bytes.size() % 512);
        CPPUNIT_ASSERT_EQUAL(expected, read_all(bytes));
    }

    void a_pax_header_from_another_tar_program_is_read() {
        CPPUNIT_ASSERT_EQUAL("files/a/b.png " + cms::digest::sha256_hex("x") + "\n",
                             read_all(with_pax("22 path=files/a/b.png\n")));
    }

    void a_pax_name_comes_out_as_it_is_for_safe_name_to_judge() {
        std::string traversal = read_all(with_pax("26 path=files/../../etc/x\n"));
        CPPUNIT_ASSERT_EQUAL(std::string("files/../../etc/x"), traversal.substr(0, traversal.find(' ')));
        CPPUNIT_ASSERT(!cms::archive::safe_name("files/../../etc/x"));
        std::string absolute = read_all(with_pax("20 path=/etc/passwd\n"));
        CPPUNIT_ASSERT_EQUAL(std::string("/etc/passwd"), absolute.substr(0, absolute.find(' ')));
    }

    // A size, linkpath or other record taken as only a name would misread what follows.
    void a_pax_header_with_anything_but_one_path_is_refused() {
        for (const std::string &records :
             {std::string("9 size=5\n"), std::string("10 path=a\n9 size=5\n"),
              std::string("10 path=a\n10 path=b\n"), std::string("13 path=a\n"),
              std::string("11 path=a\n"), std::string("10 path=a\n "), std::string("8 path=\n"),
              std::string("8 patha\n"), std::string("path=a\n"), std::string(" 9 path=a\n"),
              std::string("11 path=a\0\n", 11), std::string("000014 path=a\n"), std::string("")})
            CPPUNIT_ASSERT_THROW_MESSAGE(records, read_all(with_pax(records)), std::runtime_error);
    }

    void a_pax_header_larger_than_16_kib_is_refused() {
        std::string name(16384 - 12, 'a');
        std::string fits = "16384 path=" + name + "\n";
        CPPUNIT_ASSERT_EQUAL(size_t(16384), fits.size());
        CPPUNIT_ASSERT_NO_THROW(read_all(with_pax(fits)));
        std::string over = "16385 path=" + name + "a\n";
        CPPUNIT_ASSERT_EQUAL(size_t(16385), over.size());
        CPPUNIT_ASSERT_THROW(read_all(with_pax(over)), std::runtime_error);
    }

    void a_pax_header_without_its_member_is_refused() {
        std::string pax = raw_member("././@PaxHeader", 'x', "10 path=a\n");
        CPPUNIT_ASSERT_THROW(read_all(pax + k_end), std::runtime_error);
        CPPUNIT_ASSERT_THROW(read_all(pax + pax + raw_member("short", '0', "x") + k_end),
                             std::runtime_error);
        CPPUNIT_ASSERT_THROW(read_all(pax), std::runtime_error);
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ArchiveTest);
