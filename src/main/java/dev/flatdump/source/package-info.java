/**
 * Reading from MongoDB: the restartable cursor over raw documents in {@code _id} order, its
 * partitions, and the collection's figures.
 */
package dev.flatdump.source;
