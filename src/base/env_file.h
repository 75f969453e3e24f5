// `--env FILE`: the KEY=VALUE lines of a systemd EnvironmentFile (cms.env) put into this
// process's environment, so that a command run by hand sees what the service sees.
#pragma once

#include <string>

namespace cms {

// Sets each KEY=VALUE of path in the environment (over a variable of the same name). Blank lines
// and lines starting with # or ; are skipped; a value in single or double quotes loses them.
// Throws std::runtime_error, with path:line, for a file it cannot read, a line without KEY=, or
// a value with a backslash or a quote inside (never the value itself).
void load_env_file(const std::string &path);

} // namespace cms
