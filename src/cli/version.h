// What `cms-fcgi --version` prints: the version, and with --verbose how the binary was built and
// the version of every library linked in, so that a user can tell whether a library's security
// update needs a new release.
#pragma once

#include <string>

namespace cms {

// "cms-fcgi VERSION\n"; verbose adds one "name: value" line per library and one for the build.
std::string version_text(bool verbose);

} // namespace cms
