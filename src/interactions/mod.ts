/**
 * interactions: re-exports of this folder's modules.
 *
 * @module
 */
export {};
