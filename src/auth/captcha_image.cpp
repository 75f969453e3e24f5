// Captcha pictures with libgd: the code is drawn at half size in one of gd's built-in bitmap
// fonts (no font file to find at run time, so it works the same in CGI mode and in a chroot),
// then copied at full size one column pair at a time along a sine wave, then crossed with noise.
// A palette image of a dozen colours keeps the PNG near 1.5 KiB. Randomness is OpenSSL's.
#include "auth/captcha_image.h"

#include "auth/captcha.h"

#include <gd.h>
#include <gdfontg.h>

#include <cmath>
#include <memory>
#include <stdexcept>

namespace cms::captcha {

namespace {

constexpr int k_scale = 2;
constexpr int k_small_width = k_image_width / k_scale;
constexpr int k_small_height = k_image_height / k_scale;
constexpr std::size_t k_max_code = 8;
constexpr int k_noise_lines = 4;
constexpr int k_noise_dots = 60;
constexpr double k_pi = 3.14159265358979323846;

struct ImageFree {
    void operator()(gdImage *image) const { gdImageDestroy(image); }
};
using Image = std::unique_ptr<gdImage, ImageFree>;

// Random bytes drawn once from RAND_bytes, handed out one at a time.
class Dice {
  public:
    Dice() : bytes_(random_bytes(256)) {}
    // A number in [0, n), n at most 256 (a little biased: this is noise, not a secret).
    int roll(int n) { return static_cast<unsigned char>(bytes_[next_++ % bytes_.size()]) % n; }

  private:
    std::string bytes_;
    std::size_t next_ = 0;
};

Image create(int width, int height) {
    Image image(gdImageCreate(width, height));
    if (!image)
        throw std::runtime_error("gdImageCreate failed for a captcha");
    return image;
}

// A dark colour for text: any hue, never light enough to fade into the background.
int ink(gdImage *image, Dice &dice) {
    return gdImageColorAllocate(image, dice.roll(120), dice.roll(120), dice.roll(120));
}

} // namespace

std::string png(std::string_view code) {
    if (code.empty() || code.size() > k_max_code)
        throw std::runtime_error("captcha image: code of " + std::to_string(code.size()) +
                                 " characters");
    Dice dice;
    gdFontPtr font = gdFontGetGiant();
    Image small = create(k_small_width, k_small_height);
    gdImageColorAllocate(small.get(), 250, 248, 240); // the first colour is the background
    int advance = (k_small_width - 2) / static_cast<int>(code.size());
    for (std::size_t i = 0; i < code.size(); ++i) {
        int x = 1 + static_cast<int>(i) * advance + dice.roll(std::max(1, advance - font->w));
        int y = dice.roll(std::max(1, k_small_height - font->h + 1));
        gdImageChar(small.get(), font, x, y, static_cast<unsigned char>(code[i]),
                    ink(small.get(), dice));
    }

    Image out = create(k_image_width, k_image_height);
    gdImageColorAllocate(out.get(), 250, 248, 240); // the same paper
    double amplitude = 2.0 + dice.roll(3);
    double period = 40.0 + dice.roll(40);
    double phase = dice.roll(64) * k_pi / 32;
    for (int x = 0; x < k_image_width; x += k_scale) {
        int shift = static_cast<int>(std::lround(amplitude * std::sin(phase + 2 * k_pi * x / period)));
        gdImageCopyResized(out.get(), small.get(), x, shift, x / k_scale, 0, k_scale,
                           k_image_height, 1, k_small_height);
    }
    for (int i = 0; i < k_noise_lines; ++i) {
        int colour = gdImageColorAllocate(out.get(), 60 + dice.roll(150), 60 + dice.roll(150),
                                          60 + dice.roll(150));
        gdImageSetThickness(out.get(), 1 + dice.roll(2));
        gdImageLine(out.get(), 0, dice.roll(k_image_height), k_image_width - 1,
                    dice.roll(k_image_height), colour);
    }
    gdImageSetThickness(out.get(), 1);
    int speck = gdImageColorAllocate(out.get(), 90, 90, 90);
    for (int i = 0; i < k_noise_dots; ++i)
        gdImageSetPixel(out.get(), dice.roll(k_image_width), dice.roll(k_image_height), speck);

    int size = 0;
    void *data = gdImagePngPtrEx(out.get(), &size, 9);
    if (data == nullptr || size <= 0)
        throw std::runtime_error("gdImagePngPtrEx failed for a captcha");
    std::string bytes(static_cast<const char *>(data), static_cast<std::size_t>(size));
    gdFree(data);
    return bytes;
}

} // namespace cms::captcha
