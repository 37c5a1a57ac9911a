"""The AWS compatibility types (AWS::EC2::*, AWS::IAM::*, ...) built on the OpenStack
services; each module's RESOURCE_CLASSES registers its types (``cloud_types.FAMILY_MODULES``)."""
