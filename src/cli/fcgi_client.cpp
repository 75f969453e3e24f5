// The FastCGI records of one request (BEGIN_REQUEST, PARAMS, STDIN) and the reading of its
// answer (STDOUT until END_REQUEST), over a unix or TCP socket with a 5 s timeout.
#include "cli/fcgi_client.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <netdb.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace cms {

namespace {

constexpr unsigned char k_begin_request = 1, k_end_request = 3, k_params = 4, k_stdin = 5,
                        k_stdout = 6;

void record(std::string &out, unsigned char type, const std::string &content) {
    unsigned char header[8] = {1,
                               type,
                               0,
                               1,
                               static_cast<unsigned char>(content.size() >> 8),
                               static_cast<unsigned char>(content.size() & 0xff),
                               0,
                               0};
    out.append(reinterpret_cast<char *>(header), sizeof header);
    out += content;
}

void length(std::string &out, size_t n) {
    if (n < 128) {
        out += static_cast<char>(n);
        return;
    }
    out += static_cast<char>(((n >> 24) & 0x7f) | 0x80);
    out += static_cast<char>((n >> 16) & 0xff);
    out += static_cast<char>((n >> 8) & 0xff);
    out += static_cast<char>(n & 0xff);
}

int connect_to(const std::string &address) {
    size_t colon = address.rfind(':');
    if (address.find('/') != std::string::npos || colon == std::string::npos) {
        sockaddr_un sun;
        std::memset(&sun, 0, sizeof sun);
        sun.sun_family = AF_UNIX;
        if (address.size() >= sizeof sun.sun_path)
            throw std::runtime_error("socket path too long: '" + address + "'");
        std::memcpy(sun.sun_path, address.c_str(), address.size());
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr *>(&sun), sizeof sun) == 0)
            return fd;
        if (fd >= 0)
            close(fd);
        throw std::runtime_error("cannot connect to '" + address + "': " + std::strerror(errno));
    }
    addrinfo hints;
    std::memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    std::string host = address.substr(0, colon);
    if (getaddrinfo(host.empty() ? "127.0.0.1" : host.c_str(), address.c_str() + colon + 1, &hints,
                    &found) != 0)
        throw std::runtime_error("cannot resolve '" + address + "'");
    int fd = -1;
    for (addrinfo *a = found; a != nullptr && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(found);
    if (fd < 0)
        throw std::runtime_error("cannot connect to '" + address + "': " + std::strerror(errno));
    return fd;
}

// Closes the socket on every way out.
struct Socket {
    int fd;
    ~Socket() { close(fd); }
};

void read_exactly(int fd, char *buf, size_t n) {
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r <= 0)
            throw std::runtime_error("the pool's answer broke off");
        got += static_cast<size_t>(r);
    }
}

} // namespace

std::string fcgi_request(const std::string &address,
                         const std::vector<std::pair<std::string, std::string>> &params) {
    std::string out;
    record(out, k_begin_request, std::string("\0\1\0\0\0\0\0\0", 8)); // responder, close after
    std::string encoded;
    for (const auto &[name, value] : params) {
        length(encoded, name.size());
        length(encoded, value.size());
        encoded += name;
        encoded += value;
    }
    record(out, k_params, encoded);
    record(out, k_params, "");
    record(out, k_stdin, "");
    Socket sock{connect_to(address)};
    timeval tv{5, 0};
    setsockopt(sock.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(sock.fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (write(sock.fd, out.data(), out.size()) != static_cast<ssize_t>(out.size()))
        throw std::runtime_error("cannot send the request to '" + address + "'");
    std::string answer;
    for (;;) {
        char header[8];
        read_exactly(sock.fd, header, sizeof header);
        size_t size = (static_cast<size_t>(static_cast<unsigned char>(header[4])) << 8) |
                      static_cast<unsigned char>(header[5]);
        std::string content(size + static_cast<unsigned char>(header[6]), '\0');
        read_exactly(sock.fd, content.data(), content.size());
        if (header[1] == k_stdout)
            answer.append(content, 0, size);
        else if (header[1] == k_end_request)
            return answer;
    }
}

} // namespace cms
