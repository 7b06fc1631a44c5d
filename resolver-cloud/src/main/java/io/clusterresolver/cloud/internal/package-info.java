/**
 * What the cloud providers of this project share beyond the kit's public API. Not public API: these
 * classes may change or go in any release, and japicmp does not check them.
 */
package io.clusterresolver.cloud.internal;
