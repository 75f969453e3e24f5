// The pool's sockets, as php-fpm keeps them in fpm_sockets.c: the listening socket opened, or
// taken over from spawn-fcgi, a systemd socket unit or the master this one was re-executed from;
// the unix socket file made, checked and removed; and the listen queue read from the kernel.
#include "pool/sockets.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fcgiapp.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/log.h"

namespace cms {

namespace {

// The environment variables through which a re-executed master learns which descriptor is the
// listening socket it already holds, and for which listen it was opened.
constexpr const char *k_inherited_socket_env = "CMS_SUPERVISOR_SOCKET";
constexpr const char *k_inherited_listen_env = "CMS_SUPERVISOR_LISTEN";

constexpr int k_listen_backlog = 1024;

// libfcgi unlinks whatever is at a socket path before it binds: refuse a path that holds
// anything but a socket nothing listens on (one left by a pool that was killed), so that a
// mistyped listen removes no file and a second pool does not take a running pool's socket.
void check_socket_path(const std::string &path) {
    struct stat file {};
    if (lstat(path.c_str(), &file) != 0)
        return; // nothing there (or nothing we may see: bind will say)
    if (!S_ISSOCK(file.st_mode))
        throw std::runtime_error("cannot listen on '" + path +
                                 "': the path holds a file that is not a socket");
    sockaddr_un address{};
    if (path.size() >= sizeof address.sun_path)
        return; // too long for any socket: FCGX_OpenSocket refuses it
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.data(), path.size());
    // Non-blocking: a running pool with a full accept queue answers EAGAIN, not a wait.
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (probe < 0)
        throw std::runtime_error("cannot listen on '" + path + "': " + std::strerror(errno));
    int error = connect(probe, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0
                    ? 0
                    : errno;
    close(probe);
    if (error == 0 || error == EAGAIN)
        throw std::runtime_error("cannot listen on '" + path +
                                 "': another process accepts on that socket");
    if (error != ECONNREFUSED && error != ENOENT)
        throw std::runtime_error("cannot listen on '" + path + "': cannot tell whether " +
                                 "another process accepts on it: " + std::strerror(error));
}

// A unix socket's queue, by its inode, through NETLINK_SOCK_DIAG (UNIX_DIAG_RQLEN).
bool unix_listen_queue(int fd, int64_t &now, int64_t &limit) {
    struct stat st;
    if (fstat(fd, &st) != 0)
        return false;
    int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (nl < 0)
        return false;
    struct {
        struct nlmsghdr header;
        struct unix_diag_req request;
    } ask;
    std::memset(&ask, 0, sizeof ask);
    ask.header.nlmsg_len = sizeof ask;
    ask.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    ask.header.nlmsg_flags = NLM_F_REQUEST;
    ask.request.sdiag_family = AF_UNIX;
    ask.request.udiag_states = 1 << 10; // TCP_LISTEN
    ask.request.udiag_ino = static_cast<unsigned>(st.st_ino);
    ask.request.udiag_show = UDIAG_SHOW_RQLEN;
    ask.request.udiag_cookie[0] = ask.request.udiag_cookie[1] = ~0u; // INET_DIAG_NOCOOKIE
    struct sockaddr_nl kernel;
    std::memset(&kernel, 0, sizeof kernel);
    kernel.nl_family = AF_NETLINK;
    bool found = false;
    if (sendto(nl, &ask, sizeof ask, 0, reinterpret_cast<sockaddr *>(&kernel), sizeof kernel) ==
        static_cast<ssize_t>(sizeof ask)) {
        alignas(nlmsghdr) char buf[8192];
        ssize_t n = recv(nl, buf, sizeof buf, 0);
        auto *h = reinterpret_cast<nlmsghdr *>(buf);
        if (n > 0 && NLMSG_OK(h, static_cast<unsigned>(n)) &&
            h->nlmsg_type == SOCK_DIAG_BY_FAMILY) {
            auto *msg = static_cast<unix_diag_msg *>(NLMSG_DATA(h));
            int len = static_cast<int>(h->nlmsg_len - NLMSG_LENGTH(sizeof *msg));
            for (auto *attr = reinterpret_cast<rtattr *>(msg + 1); RTA_OK(attr, len);
                 attr = RTA_NEXT(attr, len)) {
                if (attr->rta_type != UNIX_DIAG_RQLEN)
                    continue;
                auto *rq = static_cast<unix_diag_rqlen *>(RTA_DATA(attr));
                now = rq->udiag_rqueue;
                limit = rq->udiag_wqueue;
                found = true;
            }
        }
    }
    close(nl);
    return found;
}

// A new listening socket on listen (not empty).
int open_listen(const std::string &listen) {
    bool unix_path = listen.find(':') == std::string::npos;
    if (unix_path)
        check_socket_path(listen);
    int fd = FCGX_OpenSocket(listen.c_str(), k_listen_backlog);
    if (fd < 0)
        throw std::runtime_error("cannot listen on '" + listen + "'");
    if (unix_path && chmod(listen.c_str(), 0660) != 0) {
        int error = errno;
        close(fd);
        throw std::runtime_error("cannot set the mode of socket '" + listen + "': " +
                                 std::strerror(error));
    }
    log_info("listening on " + listen);
    return fd;
}

// The socket a re-executed master was handed, for a listen that has changed since: no longer
// listened on, and its file removed when the pool made it. Fd 0 (spawn-fcgi's) becomes
// /dev/null, so that no later open takes the descriptor of standard input.
void retire_socket(const ListenSocket &old) {
    remove_socket_file(own_socket_file(old.listen, old.fd));
    if (old.fd == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null > 0) {
            dup2(null, 0);
            close(null);
        }
    } else {
        close(old.fd);
    }
}

} // namespace

ListenSocket listening_socket(const std::string &listen) {
    if (const char *inherited = std::getenv(k_inherited_socket_env)) {
        char *end = nullptr;
        long fd = std::strtol(inherited, &end, 10);
        if (end == inherited || *end != '\0' || fd < 0 || fd > INT_MAX)
            throw std::runtime_error(std::string(k_inherited_socket_env) + " is not a descriptor");
        const char *handed_listen = std::getenv(k_inherited_listen_env);
        // Without the listen (a master of an older version), the socket is taken as it is.
        ListenSocket handed{static_cast<int>(fd), handed_listen ? handed_listen : listen};
        unsetenv(k_inherited_socket_env);
        unsetenv(k_inherited_listen_env);
        if (handed.listen == listen || listen.empty())
            return handed;
        try {
            ListenSocket fresh{open_listen(listen), listen};
            retire_socket(handed);
            log_info("listen changed from '" + handed.listen + "' to '" + listen +
                     "': the old socket is closed");
            return fresh;
        } catch (const std::runtime_error &e) {
            log_error(std::string(e.what()) + "; serving on '" + handed.listen +
                      "' still, as before the restart");
            return handed;
        }
    }
    if (listen.empty())
        return {FCGX_IsCGI() ? -1 : 0, ""};
    return {open_listen(listen), listen};
}

SocketFile own_socket_file(const std::string &listen, int fd) {
    if (fd < 0 || listen.empty() || listen.find(':') != std::string::npos)
        return {};
    sockaddr_un address{};
    socklen_t length = sizeof address;
    struct stat file {};
    if (getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0 ||
        address.sun_family != AF_UNIX ||
        std::string(address.sun_path, strnlen(address.sun_path, sizeof address.sun_path)) !=
            listen ||
        lstat(listen.c_str(), &file) != 0 || !S_ISSOCK(file.st_mode))
        return {};
    return {listen, file.st_dev, file.st_ino};
}

void remove_socket_file(const SocketFile &socket) {
    struct stat file {};
    if (socket.path.empty() || lstat(socket.path.c_str(), &file) != 0 ||
        file.st_dev != socket.device || file.st_ino != socket.inode)
        return;
    if (unlink(socket.path.c_str()) != 0 && errno != ENOENT)
        log_warn("cannot remove socket '" + socket.path + "': " + std::strerror(errno));
}

void hand_over_socket(const ListenSocket &socket) {
    std::string value = std::to_string(socket.fd);
    setenv(k_inherited_socket_env, value.c_str(), 1);
    setenv(k_inherited_listen_env, socket.listen.c_str(), 1);
}

void take_back_socket() {
    unsetenv(k_inherited_socket_env);
    unsetenv(k_inherited_listen_env);
}

bool listen_queue(int fd, int64_t &now, int64_t &limit) {
    if (fd < 0)
        return false;
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return false;
    if (address.ss_family == AF_UNIX)
        return unix_listen_queue(fd, now, limit);
    // A listening TCP socket's tcpi_unacked is its accept queue now, tcpi_sacked its backlog.
    struct tcp_info info;
    socklen_t info_length = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &info_length) != 0)
        return false;
    now = info.tcpi_unacked;
    limit = info.tcpi_sacked;
    return true;
}

} // namespace cms
