mod markers;
mod section;
mod trail;
