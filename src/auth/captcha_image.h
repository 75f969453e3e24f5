// The picture of a login captcha code: a small PNG drawn in memory by libgd, never written to a
// file. What the code is, and its tag, are captcha.h's.
#pragma once

#include <string>
#include <string_view>

namespace cms::captcha {

constexpr int k_image_width = 120;
constexpr int k_image_height = 40;

// The PNG bytes of code (up to 8 characters) on a k_image_width x k_image_height image: the
// characters at random heights and colours, the whole bent by a random wave, crossed by noise
// lines and dots. Throws std::runtime_error if libgd fails.
std::string png(std::string_view code);

} // namespace cms::captcha
