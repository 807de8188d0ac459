/**
 * The store's models (@relay/store keeps them to itself: code asks it in the domain's words), for
 * tests that seed or inspect raw documents — a key stored before roles, a target's stored config,
 * a revision bumped behind the API's back.
 */
export { modelsOf } from '../../libs/store/src/store';
