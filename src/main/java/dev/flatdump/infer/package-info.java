/**
 * {@code flatdump infer}: a FlatBuffers schema that {@code export} takes as it is, inferred from
 * the BSON types each path of a collection's documents holds, under docs/mapping.md's rules.
 */
package dev.flatdump.infer;
