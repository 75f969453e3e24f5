// The pool's sockets, all in one place as php-fpm keeps them in fpm_sockets.c: the listening
// socket (opened, inherited, or handed across a re-exec), the unix socket file a clean stop
// removes, and the listen queue the kernel reports.
#pragma once

#include <cstdint>
#include <string>

#include <sys/types.h>

namespace cms {

// The listening socket and the listen value it was opened for: empty for one inherited on fd 0
// from spawn-fcgi or a systemd socket unit.
struct ListenSocket {
    int fd = -1;
    std::string listen;
};

// The listening socket: the one a re-executed master already holds (hand_over_socket) when it
// was opened for the same listen; a new one on listen (a unix socket only the process's user and
// group may connect to; a path that holds anything but a socket nothing listens on is refused,
// since libfcgi unlinks whatever is there), the handed one then closed and its file removed when
// the pool made it; or the one inherited on fd 0 from spawn-fcgi or a systemd socket unit. fd -1
// when the process is a CGI program. Throws on failure, but for a re-exec whose new listen cannot
// be opened: that one logs why and goes on with the handed socket, so that a reload never stops
// the pool.
ListenSocket listening_socket(const std::string &listen);

// The unix socket file this process (or the master it re-executed from) made from listen, which
// a clean stop removes; path empty for a TCP socket and for one inherited from spawn-fcgi or a
// systemd socket unit, whose file is theirs. Compared with the socket's own address, so that a
// re-exec after listen changed never removes a file the socket is not bound to, and known by its
// inode, so that a file put at the path since (another pool's socket) is not removed either.
struct SocketFile {
    std::string path;
    dev_t device = 0;
    ino_t inode = 0;
};
SocketFile own_socket_file(const std::string &listen, int fd);
// Removes socket's file when the file at its path is still the one this process found there.
void remove_socket_file(const SocketFile &socket);

// Across the master's re-exec: the socket and its listen are put in the environment for
// listening_socket() of the new program; take_back_socket() undoes it when the exec failed.
void hand_over_socket(const ListenSocket &socket);
void take_back_socket();

// The listening socket's queue now and its length limit (TCP_INFO for TCP, sock_diag for a unix
// socket, as php-fpm reads them); false when the kernel does not tell.
bool listen_queue(int fd, int64_t &now, int64_t &limit);

} // namespace cms
