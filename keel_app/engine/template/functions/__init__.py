"""Every intrinsic function, by family; each template version picks its own table of them.

- ``references``: get_param, get_resource, get_attr, get_file, resource_facade, removed ones
- ``strings``: str_replace (+ strict, vstrict), list_join, str_split, digest, make_url
- ``structures``: map_merge, map_replace, list_concat(_unique), contains, filter, repeat
- ``conditional``: if, equals, not, and, or
- ``yaql_expression``: yaql
- ``cfn``: Ref, Fn::GetAtt, Fn::Join, Fn::Select, Fn::FindInMap, ... (the CloudFormation family)
"""
