// Runs every registered CppUnit suite and reports each test case as one TAP line, so prove counts
// unit tests individually. stdout carries TAP only; details go on "# " lines.
#include <cppunit/Exception.h>
#include <cppunit/Test.h>
#include <cppunit/TestFailure.h>
#include <cppunit/TestListener.h>
#include <cppunit/TestResult.h>
#include <cppunit/extensions/TestFactoryRegistry.h>

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace cms {

class TapListener : public CppUnit::TestListener {
  public:
    void startTest(CppUnit::Test *) override {
        ++count_;
        failing_ = false;
        details_.clear();
    }

    void addFailure(const CppUnit::TestFailure &failure) override {
        failing_ = true;
        const CppUnit::SourceLine &where = failure.sourceLine();
        std::string prefix = "# ";
        if (where.isValid())
            prefix += where.fileName() + ":" + std::to_string(where.lineNumber()) + " ";
        if (failure.isError())
            prefix += "uncaught exception: ";
        // CppUnit messages span lines ("- Expected: ..."); every line must stay a TAP comment.
        std::istringstream message(failure.thrownException()->what());
        for (std::string line; std::getline(message, line); prefix = "#   ")
            details_.push_back(prefix + line);
    }

    void endTest(CppUnit::Test *test) override {
        std::cout << (failing_ ? "not ok " : "ok ") << count_ << " - " << test->getName() << "\n";
        for (const std::string &line : details_)
            std::cout << line << "\n";
        failed_ += failing_ ? 1 : 0;
    }

    int count() const { return count_; }
    int failed() const { return failed_; }

  private:
    std::vector<std::string> details_;
    bool failing_ = false;
    int count_ = 0;
    int failed_ = 0;
};

} // namespace cms

int main() {
    std::unique_ptr<CppUnit::Test> suite(CppUnit::TestFactoryRegistry::getRegistry().makeTest());
    CppUnit::TestResult result;
    cms::TapListener tap;
    result.addListener(&tap);
    result.runTest(suite.get());
    // The plan goes last, as git's test-lib does, so the count never has to be known up front.
    std::cout << "1.." << tap.count() << std::endl;
    return tap.failed() == 0 ? 0 : 1;
}
