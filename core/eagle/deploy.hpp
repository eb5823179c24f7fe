#pragma once
// deploy(model, steps): a model bound to how many steps each launch fuses.

#include <eagle/model.hpp>
#include <eagle/steps.hpp>

namespace eagle {

/// A model ready to run: the step body with its uniform parameters, and its steps setting.
template <class Model>
struct Deployed {
  Model model;
  Steps steps;
};

/// Binds a model to a steps setting (default: one step per launch).
template <class Model>
Deployed<Model> deploy(const Model& model, Steps steps = Steps::fixed(1)) {
  static_cast<void>(ModelTraits<Model>{});  // the model's compile-time checks, here at the call
  return {model, steps};
}

/// `deploy(model, 16)`: every launch fuses 16 steps.
template <class Model>
Deployed<Model> deploy(const Model& model, int k) {
  return deploy(model, Steps::fixed(k));
}

}  // namespace eagle
