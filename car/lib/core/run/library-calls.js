// The library's functions (index.js gives them), each loading the stages it runs at its first call
// (`#verify-stages` and `#call-stages`: in Node, not with the library, which importing would
// otherwise cost every program that imports it, used or not; elsewhere, already loaded). The same
// functions as the stages' files give: these only pass their arguments on.
import { verifyStages } from '#verify-stages'
import { callStages } from '#call-stages'

/** @type {typeof import('./verify-car.js').verifyCar} */
export const verifyCar = (...args) => verifyStages().verifyCar(...args)
/** @type {typeof import('./verify-car.js').runVerify} */
export const runVerify = (...args) => verifyStages().runVerify(...args)
/** @type {typeof import('./canonicalize-car.js').canonicalizeCar} */
export const canonicalizeCar = (...args) => callStages().canonicalizeCar(...args)
/** @type {typeof import('./read-block-at.js').readBlockAt} */
export const readBlockAt = (...args) => callStages().readBlockAt(...args)
/** @type {typeof import('./check-repo.js').checkRepo} */
export const checkRepo = (...args) => callStages().checkRepo(...args)
/** @type {typeof import('../report/block-view.js').blockToJson} */
export const blockToJson = (...args) => callStages().blockToJson(...args)
