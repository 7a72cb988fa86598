#include "controllers/framework/registry.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "controllers/framework/gates.h"

namespace vc::controllers {
namespace {

class NamedController : public Controller {
 public:
  explicit NamedController(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  api::Status initialize(ControllerContext&) override { return api::ok_status(); }
  void run() override {}
  void stop() override {}

 private:
  std::string name_;
};

ControllerFactory factory_for(std::string name) {
  return [name] { return std::make_unique<NamedController>(name); };
}

std::vector<std::string> names(const std::vector<Registration>& rs) {
  std::vector<std::string> out;
  for (const auto& r : rs) out.push_back(r.name);
  return out;
}

TEST(ControllerRegistry, KnowsVolcanoNamesSorted) {
  const auto& known = known_controller_names();
  ASSERT_EQ(known.size(), 10u);
  EXPECT_TRUE(std::is_sorted(known.begin(), known.end()));
  EXPECT_NE(std::find(known.begin(), known.end(), "hyperNode-controller"), known.end());
}

TEST(ControllerRegistry, DefaultGatesSplitImplementedUnimplementedAndDisabled) {
  ControllerRegistry registry;
  registry.add("queue-controller", factory_for("queue-controller"));
  registry.add("pg-controller", factory_for("pg-controller"));
  const Selection s = registry.select(default_controller_gates());
  EXPECT_EQ(names(s.enabled), (std::vector<std::string>{"pg-controller", "queue-controller"}));
  EXPECT_EQ(s.disabled, std::vector<std::string>{"sharding-controller"});
  EXPECT_EQ(s.unimplemented.size(), 7u);
  EXPECT_NE(std::find(s.unimplemented.begin(), s.unimplemented.end(), "job-controller"),
            s.unimplemented.end());
}

TEST(ControllerRegistry, UnknownRegisteredNamesFollowTheGateToo) {
  ControllerRegistry registry;
  registry.add("test-controller", factory_for("test-controller"));
  EXPECT_EQ(names(registry.select({"*"}).enabled), std::vector<std::string>{"test-controller"});
  const Selection off = registry.select({"*", "-test-controller"});
  EXPECT_TRUE(off.enabled.empty());
  EXPECT_NE(std::find(off.disabled.begin(), off.disabled.end(), "test-controller"),
            off.disabled.end());
}

TEST(ControllerRegistry, AddReplacesTheFactoryOfAName) {
  ControllerRegistry registry;
  const size_t before = registry.registrations().size();
  registry.add("gc-controller", factory_for("first"));
  registry.add("gc-controller", factory_for("second"));
  EXPECT_EQ(registry.registrations().size(), before);
  const Selection s = registry.select({"gc-controller"});
  ASSERT_EQ(s.enabled.size(), 1u);
  EXPECT_EQ(s.enabled[0].factory()->name(), "second");
}

}  // namespace
}  // namespace vc::controllers
