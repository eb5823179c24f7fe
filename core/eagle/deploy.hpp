#pragma once
// deploy(model, steps): a model bound to how many steps each launch fuses.

#include <eagle/model.hpp>
#include <eagle/steps.hpp>

namespace eagle {

/// A model ready to run: the step body with its uniform parameters, its steps setting and the
/// loop nest that runs the steps.
template <class Model>
struct Deployed {
  Model model;    ///< the step body and its uniform parameters
  Steps steps;    ///< steps each launch fuses: a fixed K, or auto
  LoopNest nest;  ///< the loop nest that runs a launch's steps
};

/// Binds a model to a steps setting and a loop nest. The defaults are the fastest safe choice on
/// every space: steps = auto (eagle picks K launch by launch: the host tile runs long launches,
/// devices weigh measured launch costs) and the space's own nest (the tile on host execution
/// spaces, one sample per work item elsewhere). `deploy(model, 1)` is the seed's one step a launch.
template <class Model>
Deployed<Model> deploy(const Model& model, Steps steps = Steps::automatic(), LoopNest nest = LoopNest::space_default) {
  static_cast<void>(ModelTraits<Model>{});  // the model's compile-time checks, here at the call
  return {model, steps, nest};
}

/// `deploy(model, 16)`: every launch fuses 16 steps.
template <class Model>
Deployed<Model> deploy(const Model& model, long long k, LoopNest nest = LoopNest::space_default) {
  return deploy(model, Steps::fixed(k), nest);
}

}  // namespace eagle
