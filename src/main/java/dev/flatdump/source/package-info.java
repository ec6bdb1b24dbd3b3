/**
 * Reading from MongoDB: the restartable cursor over raw documents, collection figures and rejects;
 * and the codec of the sample organizations.
 */
package dev.flatdump.source;
