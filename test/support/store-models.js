"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.modelsOf = void 0;
/**
 * The store's models (@relay/store keeps them to itself: code asks it in the domain's words), for
 * tests that seed or inspect raw documents — a key stored before roles, a target's stored config,
 * a revision bumped behind the API's back.
 */
var store_1 = require("../../libs/store/src/store");
Object.defineProperty(exports, "modelsOf", { enumerable: true, get: function () { return store_1.modelsOf; } });
//# sourceMappingURL=store-models.js.map